import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import { DEACTIVATED_MESSAGE, DENIED_MESSAGE } from '#domain/auth/auth-messages.ts';
import { isApproved, shouldUpgradeToAdmin } from '#domain/auth/roles.ts';
import { splitFullName, type Profile } from '#domain/profiles/profile.schema.ts';
import { AppError } from '../errors/app-error.ts';
import { withActor } from '../db/database.ts';
import type { AppContext } from '../app-context.ts';
import { deleteSessionsOf, ensureProfile, findProfile } from '../modules/profiles/public.ts';
import { withRequestScheme } from '../modules/auth/public.ts';

/**
 * Who may call a route. Every route declares one (registration fails otherwise), and the authorisation matrix
 * test walks every registered route with every kind of account.
 *  - public:   anyone
 *  - session:  any signed-in account that is not denied or deactivated, pending included (its session, sign-out, events)
 *  - approved: role user or admin
 *  - admin:    role admin
 */
export type Access = 'public' | 'session' | 'approved' | 'admin';

export type Viewer = { userId: string; profile: Profile };

// Module augmentation needs interfaces (declaration merging).
/* eslint-disable @typescript-eslint/consistent-type-definitions */
declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    csrf?: boolean;
  }
  interface FastifyRequest {
    viewer: Viewer | null;
  }
}

/** A registered route: its access level, and the schemas its input is validated with (read by the route fuzzer). */
export type RouteAccess = { method: string; url: string; access: Access; schema: FastifySchema | undefined };

/** Registers the guard; returns the live table of every route and its access level (read by the authorisation matrix). */
export function registerAccessControl(app: FastifyInstance, ctx: AppContext): RouteAccess[] {
  const registeredRoutes: RouteAccess[] = [];
  app.decorateRequest('viewer', null);

  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (route.url.startsWith('/api/') && !access) {
      throw new Error(`Route ${String(route.method)} ${route.url} declares no access level (config.access).`);
    }
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD')
        registeredRoutes.push({ method, url: route.url, access: access ?? 'public', schema: route.schema });
    }
  });

  // onRequest, so identity and permission are settled before the body or params are even validated.
  app.addHook('onRequest', async (request, reply) => {
    const access = request.routeOptions.config.access ?? 'public';
    if (access === 'public') return;
    const viewer = await resolveViewer(ctx, request, (cookies) => void reply.header('set-cookie', cookies));
    requireAccess(viewer.profile, access);
    request.viewer = viewer;
  });
  return registeredRoutes;
}

/** The signed-in viewer of a request, or an AppError saying why there is none (signed out, denied, deactivated). */
export async function resolveViewer(
  ctx: AppContext,
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

function requireAccess(profile: Profile, access: Access): void {
  if (access === 'session') return;
  if (!isApproved(profile.role)) throw new AppError('ACCOUNT_PENDING', 'Your account is pending approval.');
  if (access === 'admin' && profile.role !== 'admin')
    throw new AppError('ADMIN_ONLY', 'Administrators only.');
}

/** The signed-in viewer of a route whose access is not public. */
export function viewerOf(request: FastifyRequest): Viewer {
  if (!request.viewer) throw new AppError('UNAUTHENTICATED', 'Please sign in.');
  return request.viewer;
}
