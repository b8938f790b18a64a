import type { FastifyRequest } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import { DEACTIVATED_MESSAGE, DENIED_MESSAGE } from '#domain/auth/auth-messages.ts';
import { shouldUpgradeToAdmin } from '#domain/auth/roles.ts';
import { splitFullName } from '#domain/text/person-name.ts';
import { AppError } from '../../errors/app-error.ts';
import { withActor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import type { Viewer } from '../../plugins/access-control.ts';
import { ensureProfile, findProfile } from '../profiles/public.ts';
import { deleteSessionsOf } from './auth-accounts.repository.ts';
import { withRequestScheme } from './auth-cookies.ts';

/** The signed-in viewer of a request, or an AppError saying why there is none (signed out, denied, deactivated). */
export async function resolveViewer(
  ctx: Pick<AppContext, 'auth' | 'db' | 'adminEmail'>,
  request: FastifyRequest,
  setCookies: (c: string[]) => void,
): Promise<Viewer> {
  const result = await ctx.auth.api.getSession({
    headers: fromNodeHeaders(request.headers),
    returnHeaders: true,
  });
  const refreshed = result.headers?.getSetCookie() ?? [];
  if (refreshed.length > 0) setCookies(withRequestScheme(refreshed, request.protocol === 'https'));
  const session = result.response;
  if (!session) throw new AppError('UNAUTHENTICATED', 'Please sign in.');
  const user = session.user;
  const profile = await withActor(ctx.db, { kind: 'system' }, async (trx) => {
    const found = await findProfile(trx, user.id);
    const ensured =
      found && !shouldUpgradeToAdmin({ email: found.email, role: found.role, adminEmail: ctx.adminEmail })
        ? found
        : await ensureProfile(
            trx,
            { id: user.id, email: user.email, ...splitFullName(user.name) },
            ctx.adminEmail,
          );
    // A denied or deactivated account loses every session at once; the browser is sent back to sign-in.
    if (ensured.role === 'denied' || ensured.deactivated) await deleteSessionsOf(trx, user.id);
    return ensured;
  });
  if (profile.role === 'denied') throw new AppError('ACCOUNT_DENIED', DENIED_MESSAGE);
  if (profile.deactivated) throw new AppError('ACCOUNT_DEACTIVATED', DEACTIVATED_MESSAGE);
  return { userId: user.id, profile };
}
