import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bearerToken } from '#domain/api-keys/api-key.ts';
import { AppError } from '../errors/app-error.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origin the browser is talking to, as this request saw it (behind a proxy when TRUST_PROXY is on). */
export function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

export function isTrustedOrigin(
  origin: string,
  request: FastifyRequest,
  trusted: readonly string[],
): boolean {
  return origin === requestOrigin(request) || trusted.includes(origin);
}

/**
 * Cross-site request protection for every state-changing request: the browser's Origin (or, failing that, Referer)
 * must be this server's own origin or a configured trusted one. Session cookies are SameSite=Lax as well.
 *
 * The decision follows the route the router matched, never the raw URL: the router decodes the path, so
 * `/%61pi/...` reaches the same handler as `/api/...`, and a check on the raw text would let it through. Every
 * matched route with an unsafe method is checked unless it opts out with `config: { csrf: false }` (third-party
 * callbacks such as provider webhooks, which carry their own signatures). A request that matched no route changes
 * nothing and gets its 404. A request to a signed-in route carrying an API key (`Authorization: Bearer`) is not a
 * browser riding on a cookie: the key alone signs it in (access-control.ts never reads its cookies), and a page of
 * another site cannot add that header without this server's CORS consent, which it never gives.
 */
export function registerCsrfProtection(app: FastifyInstance, trustedOrigins: readonly string[]): void {
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || request.is404) return;
    if (request.routeOptions.config.csrf === false) return;
    const access = request.routeOptions.config.access ?? 'public';
    if (access !== 'public' && bearerToken(request.headers.authorization) !== undefined) return;
    const origin = request.headers.origin ?? originOfReferer(request.headers.referer);
    if (!origin || !isTrustedOrigin(origin, request, trustedOrigins)) {
      throw new AppError('CSRF_REJECTED', 'Cross-site request refused.');
    }
  });
}

function originOfReferer(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}
