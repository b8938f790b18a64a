import { wouldRemoveLastAdmin } from '#domain/admin/admin.schema.ts';
import type { Profile } from '#domain/profiles/profile.schema.ts';
import { fullName } from '#domain/profiles/profile.schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { withActor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import {
  countActiveAdminsForUpdate,
  lockAdminRoles,
  lockProfile,
  updateProfileAccess,
} from '../profiles/public.ts';
import { deleteSessionsOf } from '../auth/public.ts';

/**
 * The account decisions an administrator makes. Each runs in one transaction acting as admin, locks the target
 * profile, and ends the target's sessions when it loses access, so its open pages stop working on the next request.
 */
export type AdminAction = 'approve' | 'deny' | 'deactivate' | 'reactivate' | 'make-admin' | 'make-user';

export async function applyAdminAction(
  ctx: AppContext,
  adminId: string,
  userId: string,
  action: AdminAction,
): Promise<Profile> {
  const now = ctx.clock();
  const result = await withActor(ctx.db, { kind: 'admin', userId: adminId }, async (trx) => {
    // Changes that can take an admin away wait for each other before locking any row: two admins demoting each
    // other at once would otherwise each hold their target and wait for the other's (a deadlock, answered 500).
    if (action === 'deactivate' || action === 'make-user') await lockAdminRoles(trx);
    const target = await lockProfile(trx, userId);
    if (!target) throw new AppError('NOT_FOUND', 'User not found.');
    switch (action) {
      case 'approve':
        if (target.role !== 'pending' && target.role !== 'denied')
          throw new AppError('CONFLICT', 'This account is already approved.');
        return {
          profile: await updateProfileAccess(trx, userId, {
            role: 'user',
            reviewedBy: adminId,
            reviewedAt: now,
          }),
          notify: true,
        };
      case 'deny':
        if (target.role !== 'pending')
          throw new AppError('CONFLICT', 'Only pending accounts can be denied; deactivate approved ones.');
        await deleteSessionsOf(trx, userId);
        return {
          profile: await updateProfileAccess(trx, userId, {
            role: 'denied',
            reviewedBy: adminId,
            reviewedAt: now,
          }),
          notify: false,
        };
      case 'deactivate': {
        if (userId === adminId) throw new AppError('CONFLICT', 'You cannot deactivate your own account.');
        if (target.deactivated) return { profile: target, notify: false };
        await requireAnotherAdmin(trx, target, 'deactivate');
        await deleteSessionsOf(trx, userId);
        return { profile: await updateProfileAccess(trx, userId, { deactivatedAt: now }), notify: false };
      }
      case 'reactivate':
        return { profile: await updateProfileAccess(trx, userId, { deactivatedAt: null }), notify: false };
      case 'make-admin':
        if (target.role !== 'user' && target.role !== 'admin')
          throw new AppError('CONFLICT', 'Approve the account before changing its role.');
        return { profile: await updateProfileAccess(trx, userId, { role: 'admin' }), notify: false };
      case 'make-user':
        if (target.role !== 'user' && target.role !== 'admin')
          throw new AppError('CONFLICT', 'Approve the account before changing its role.');
        await requireAnotherAdmin(trx, target, 'demote');
        return { profile: await updateProfileAccess(trx, userId, { role: 'user' }), notify: false };
    }
  });
  if (result.notify) await sendApprovalNotice(ctx, result.profile);
  return result.profile;
}

async function requireAnotherAdmin(
  trx: Parameters<typeof countActiveAdminsForUpdate>[0],
  target: Profile,
  change: 'demote' | 'deactivate',
) {
  const activeAdminCount = await countActiveAdminsForUpdate(trx);
  if (
    wouldRemoveLastAdmin({
      targetRole: target.role,
      targetDeactivated: target.deactivated,
      activeAdminCount,
      change,
    })
  ) {
    throw new AppError('LAST_ADMIN', 'This is the last administrator: make another account admin first.');
  }
}

/** The sign-up toast promises a notice on approval: system mail, or the outbox. */
async function sendApprovalNotice(ctx: AppContext, profile: Profile): Promise<void> {
  await ctx.mailer.send({
    kind: 'account-approved',
    to: profile.email,
    subject: 'Your CallCRM account has been approved',
    text: `Hello ${fullName(profile)},\n\nAn administrator has approved your CallCRM account. You can sign in now:\n${ctx.publicUrl}/auth\n`,
  });
}
