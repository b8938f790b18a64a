import { createHmac, timingSafeEqual } from 'node:crypto';

/** The sign-in service's cookie names and signing secret (better-auth's context). */
export type SessionCookieSettings = {
  sessionToken: string;
  dontRemember: string;
  sessionData: string;
  secret: string;
};

/**
 * The session token of a request's plain session cookie (cookies as parsed by @fastify/cookie, decoded), checked
 * against its signature the way better-auth signs it (the value, a dot, then the base64 HMAC-SHA256 of the value
 * under the secret); null when there is none, it is forged, or the request carries one of the cookies only
 * better-auth itself knows how to treat (a session that is not to be remembered, cached session data). A null sends
 * the request the whole way through better-auth (decision 039).
 */
export function plainSessionToken(
  cookies: Readonly<Record<string, string | undefined>>,
  settings: SessionCookieSettings,
): string | null {
  if (cookies[settings.dontRemember] !== undefined || cookies[settings.sessionData] !== undefined)
    return null;
  const value = cookies[settings.sessionToken];
  if (!value) return null;
  const dot = value.lastIndexOf('.');
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const signature = value.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith('=')) return null;
  const expected = createHmac('sha256', settings.secret).update(token).digest();
  const given = Buffer.from(signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}
