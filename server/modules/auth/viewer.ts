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
import { plainSessionToken, type SessionCookieSettings } from './session-cookie.ts';
import { findSessionViewer } from './session-viewer.repository.ts';

type ViewerContext = Pick<AppContext, 'auth' | 'db' | 'adminEmail'>;

/** The signed-in viewer of a request, or an AppError saying why there is none (signed out, denied, deactivated). */
export async function resolveViewer(
  ctx: ViewerContext,
  request: FastifyRequest,
  setCookies: (c: string[]) => void,
): Promise<Viewer> {
  return (await settledViewer(ctx, request)) ?? resolveViewerThroughAuth(ctx, request, setCookies);
}

type SessionRules = { cookies: SessionCookieSettings; expiresIn: number; updateAge: number };
/** better-auth's cookie names, secret and session ages, read once per sign-in service. */
const sessionRulesOf = new WeakMap<ViewerContext['auth'], SessionRules>();

async function sessionRules(auth: ViewerContext['auth']): Promise<SessionRules> {
  const known = sessionRulesOf.get(auth);
  if (known) return known;
  const context = await auth.$context;
  const rules = {
    cookies: {
      sessionToken: context.authCookies.sessionToken.name,
      dontRemember: context.authCookies.dontRememberToken.name,
      sessionData: context.authCookies.sessionData.name,
      secret: context.secret,
    },
    expiresIn: context.sessionConfig.expiresIn,
    updateAge: context.sessionConfig.updateAge,
  };
  sessionRulesOf.set(auth, rules);
  return rules;
}

/**
 * The common case in one statement (decision 039): a validly signed session cookie whose session is live and not yet
 * due for better-auth's daily renewal, of an account whose profile needs no change and may sign in. Anything else
 * (no or forged cookie, renewal due, expired or unknown session, a denied, deactivated or new account) returns
 * undefined and takes the whole way through better-auth, which renews, cleans up and refuses as it always has.
 */
async function settledViewer(ctx: ViewerContext, request: FastifyRequest): Promise<Viewer | undefined> {
  const { cookies, expiresIn, updateAge } = await sessionRules(ctx.auth);
  const token = plainSessionToken(request.cookies, cookies);
  if (token === null) return undefined;
  const found = await findSessionViewer(ctx.db, token);
  if (!found?.profile) return undefined;
  const now = Date.now();
  const expiresAt = found.expiresAt.getTime();
  if (expiresAt <= now || expiresAt - expiresIn * 1000 + updateAge * 1000 <= now) return undefined;
  const { profile } = found;
  if (profile.role === 'denied' || profile.deactivated) return undefined;
  if (shouldUpgradeToAdmin({ email: profile.email, role: profile.role, adminEmail: ctx.adminEmail }))
    return undefined;
  return { userId: found.userId, profile };
}

/** The whole session check through better-auth, then the profile: ensured, and a refused account signed out. */
async function resolveViewerThroughAuth(
  ctx: ViewerContext,
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
