import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/**
 * The known-device cookie: a random id a browser receives at its first successful sign-in to an account. With it,
 * that browser is throttled on its own failures only (domain/auth/auth-throttle.ts), so the owner keeps getting in
 * while others guess at the account. It proves nothing by itself: the password is still required.
 */
export const DEVICE_COOKIE = 'callcrm.device';
const DEVICE_ID = /^[A-Za-z0-9_-]{16,64}$/;
const ONE_YEAR_SECONDS = 365 * 24 * 3600;

export function readDeviceId(request: FastifyRequest): string | null {
  const value = request.cookies[DEVICE_COOKIE];
  return value && DEVICE_ID.test(value) ? value : null;
}

export const newDeviceId = () => randomBytes(18).toString('base64url');

export function deviceCookie(id: string, secure: boolean): string {
  return `${DEVICE_COOKIE}=${id}; Path=/api/auth; Max-Age=${ONE_YEAR_SECONDS}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/**
 * Cookies marked Secure when the request came over https: behind a TLS-terminating proxy (TRUST_PROXY) the scheme
 * is the proxy's X-Forwarded-Proto, whatever PUBLIC_URL says, so the cookie never travels in clear afterwards.
 */
export function withRequestScheme(cookies: readonly string[], https: boolean): string[] {
  if (!https) return [...cookies];
  return cookies.map((c) => (/;\s*secure\s*(;|$)/i.test(c) ? c : `${c}; Secure`));
}
