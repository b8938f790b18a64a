import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import { bearerToken, keyMayReach, scopeAllows, type ApiKeyScope } from '#domain/api-keys/api-key.ts';
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
 * A request may carry a personal API key (`Authorization: Bearer`, decision 033) instead of a session: it then
 * reaches only the approved routes the API reference lists that are not the account's (keyMayReach), within the
 * key's scope; its cookies, if any, are not read.
 */
export type Access = 'public' | 'session' | 'approved' | 'admin';

export type Viewer = {
  userId: string;
  profile: Profile;
  /** The API key the request was made with; absent for a signed-in session. */
  apiKey?: { id: string; scope: ApiKeyScope };
};

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
export type RouteAccess = {
  method: string;
  url: string;
  access: Access;
  /** Whether an API key may reach it (within the key's scope). */
  apiKey: boolean;
  schema: FastifySchema | undefined;
};

/** Who is signing a request in: the viewer, or an AppError saying why there is none (the auth module's resolveViewer). */
export type ViewerResolver = (
  request: FastifyRequest,
  setCookies: (cookies: string[]) => void,
) => Promise<Viewer>;

/** Who an API key speaks for, or an AppError saying why it speaks for no one (the api-keys module's). */
export type ApiKeyResolver = (secret: string) => Promise<Viewer & { apiKey: NonNullable<Viewer['apiKey']> }>;

/**
 * Registers the guard, with the sign-in service's way of telling who a request is from and the API keys' way;
 * returns the live table of every route and its access level (read by the authorisation matrix).
 */
export function registerAccessControl(
  app: FastifyInstance,
  resolveViewer: ViewerResolver,
  resolveApiKey: ApiKeyResolver,
): RouteAccess[] {
  const registeredRoutes: RouteAccess[] = [];
  const keyRoutes = new Set<string>();
  app.decorateRequest('viewer', null);

  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (route.url.startsWith('/api/') && !access) {
      throw new Error(`Route ${String(route.method)} ${route.url} declares no access level (config.access).`);
    }
    const hidden = Boolean(route.schema?.hide);
    const apiKey = keyMayReach({ url: route.url, access: access ?? 'public', hidden });
    for (const method of [route.method].flat()) {
      if (apiKey) keyRoutes.add(`${method} ${route.url}`);
      if (method !== 'HEAD')
        registeredRoutes.push({
          method,
          url: route.url,
          access: access ?? 'public',
          apiKey,
          schema: route.schema,
        });
    }
  });

  // onRequest, so identity and permission are settled before the body or params are even validated.
  app.addHook('onRequest', async (request, reply) => {
    const access = request.routeOptions.config.access ?? 'public';
    if (access === 'public') return;
    const secret = bearerToken(request.headers.authorization);
    if (secret !== undefined) {
      const keyViewer = await resolveApiKey(secret);
      if (!keyRoutes.has(`${request.method} ${request.routeOptions.url}`))
        throw new AppError('FORBIDDEN', 'API keys cannot reach this route: sign in to use it.');
      if (!scopeAllows(keyViewer.apiKey.scope, request.method))
        throw new AppError('FORBIDDEN', 'This API key is read-only: make a read-write key to change data.');
      requireAccess(keyViewer.profile, access);
      request.viewer = keyViewer;
      return;
    }
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
