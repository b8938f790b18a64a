import { sql } from 'kysely';
import type { Profile } from '#domain/profiles/profile.schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import { PROFILE_COLUMNS, toProfile } from './profiles.repository.ts';

/* What an admin changes of an account (its role, whether it is active, who reviewed it), and the locks that keep
 * the last admin in place however many admins act at once. */

/** Locks and returns the profile, so concurrent admin actions on the same account apply one after the other. */
export async function lockProfile(db: DbExecutor, userId: string): Promise<Profile | undefined> {
  const row = await db
    .selectFrom('user_profiles')
    .select(PROFILE_COLUMNS)
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  return row ? toProfile(row) : undefined;
}

/** Active admins, locked: two admins demoting each other at once cannot both succeed. */
export async function countActiveAdminsForUpdate(db: DbExecutor): Promise<number> {
  const rows = await db
    .selectFrom('user_profiles')
    .select('id')
    .where('role', '=', 'admin')
    .where('deactivated_at', 'is', null)
    .forUpdate()
    .execute();
  return rows.length;
}

export async function updateProfileAccess(
  db: DbExecutor,
  userId: string,
  change: { role?: Profile['role']; deactivatedAt?: Date | null; reviewedBy?: string; reviewedAt?: Date },
): Promise<Profile> {
  const row = await db
    .updateTable('user_profiles')
    .set({
      ...(change.role !== undefined ? { role: change.role } : {}),
      ...(change.deactivatedAt !== undefined ? { deactivated_at: change.deactivatedAt } : {}),
      ...(change.reviewedBy !== undefined
        ? { reviewed_by: change.reviewedBy, reviewed_at: change.reviewedAt ?? new Date() }
        : {}),
    })
    .where('id', '=', userId)
    .returning(PROFILE_COLUMNS)
    .executeTakeFirstOrThrow();
  return toProfile(row);
}

/** Changes that can take an admin away wait for each other (a transaction lock), before any row is locked. */
export async function lockAdminRoles(db: DbExecutor): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended('admin-roles', 0))`.execute(db);
}
