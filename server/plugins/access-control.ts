import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import { isApproved } from '#domain/auth/roles.ts';
import type { Profile } from '#domain/profiles/profile.schema.ts';
import { AppError } from '../errors/app-error.ts';

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

/** Who is signing a request in: the viewer, or an AppError saying why there is none (the auth module's resolveViewer). */
export type ViewerResolver = (
  request: FastifyRequest,
  setCookies: (cookies: string[]) => void,
) => Promise<Viewer>;

/**
 * Registers the guard, with the sign-in service's way of telling who a request is from; returns the live table of
 * every route and its access level (read by the authorisation matrix).
 */
export function registerAccessControl(app: FastifyInstance, resolveViewer: ViewerResolver): RouteAccess[] {
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
    const viewer = await resolveViewer(request, (cookies) => void reply.header('set-cookie', cookies));
    requireAccess(viewer.profile, access);
    request.viewer = viewer;
  });
  return registeredRoutes;
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
