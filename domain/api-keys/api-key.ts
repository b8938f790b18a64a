import { z } from 'zod';

/**
 * Personal API keys (decision 033): a script or another tool calls the API as its user, with
 * `Authorization: Bearer <key>` instead of a session. A key is shown once, stored only as its SHA-256, read-only or
 * read-write, counted against its own rate limit, and reaches only the routes of the API reference that work on the
 * user's own data, never the account's sign-in, sessions, keys or administration. Pure: the server stores and checks.
 */
export const API_KEY_PREFIX = 'ccrm_';
/** 32 random bytes in base64url after the prefix. */
export const API_KEY_PATTERN = /^ccrm_[A-Za-z0-9_-]{43}$/;
/** At most this many keys per user (revoke one to make another). */
export const MAX_API_KEYS = 20;
/** Requests a key may make per minute, by default (API_KEY_REQUESTS_PER_MINUTE). */
export const DEFAULT_API_KEY_REQUESTS_PER_MINUTE = 600;
export const API_KEY_WINDOW_SECONDS = 60;

export const ApiKeyScopeSchema = z.enum(['read', 'read-write']);
export type ApiKeyScope = z.infer<typeof ApiKeyScopeSchema>;

export const SCOPE_LABELS: Record<ApiKeyScope, string> = {
  read: 'Read only',
  'read-write': 'Read and write',
};

export const CreateApiKeySchema = z.object({
  name: z.string().trim().min(1, 'Name the key after what will use it.').max(100, 'At most 100 characters.'),
  scope: ApiKeyScopeSchema,
});
export type CreateApiKey = z.infer<typeof CreateApiKeySchema>;

export const ApiKeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  scope: ApiKeyScopeSchema,
  /** The key's last four characters, so its owner can tell keys apart; the rest is never shown again. */
  hint: z.string(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const ApiKeyListSchema = z.object({ keys: z.array(ApiKeySchema) });
/** The answer to making a key: the key itself, this once. */
export const CreatedApiKeySchema = z.object({ key: ApiKeySchema, secret: z.string() });

/** The key a request carries in `Authorization: Bearer …`; undefined when it carries none (then the session counts). */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const match = /^Bearer[ \t]+(\S*)[ \t]*$/i.exec(authorization);
  return match ? match[1] : undefined;
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a key of this scope may make a request with this method. */
export function scopeAllows(scope: ApiKeyScope, method: string): boolean {
  return scope === 'read-write' || READ_METHODS.has(method.toUpperCase());
}

/**
 * Routes of the user's own data that a key still may not reach: the event stream (an open stream tells incoming calls
 * that a browser is there to answer), the browser phone's token, and the integrations' secret addresses (the calendar
 * feed, the Slack webhook) and the CRM connections (HubSpot, Salesforce). Webhook endpoints are reachable: registering them is what integrations do. The account itself
 * (sign-in, password, sessions, keys) and administration are out of reach by their access level.
 */
const OUT_OF_REACH = [
  '/api/api-keys',
  '/api/events',
  '/api/calls/voice-token',
  '/api/calendar-feed',
  '/api/slack',
  '/api/hubspot',
  '/api/salesforce',
];

/** Whether an API key may reach a route: an approved user's route listed in the API reference, not the account's. */
export function keyMayReach(route: { url: string; access: string; hidden: boolean }): boolean {
  if (route.access !== 'approved' || route.url.startsWith('/api/auth/')) return false;
  if (OUT_OF_REACH.some((prefix) => route.url === prefix || route.url.startsWith(`${prefix}/`))) return false;
  return !route.hidden || route.url === '/api/openapi.json';
}

/**
 * Whether a key's request is within its limit, given the window it was counted in (the server counts atomically:
 * a window older than API_KEY_WINDOW_SECONDS starts again at this request), and when the caller may try again.
 */
export function rateVerdict(
  window: { startedAt: Date; count: number },
  now: Date,
  limit: number,
): { allowed: boolean; retryAfterSeconds: number } {
  const endsIn = window.startedAt.getTime() + API_KEY_WINDOW_SECONDS * 1000 - now.getTime();
  return { allowed: window.count <= limit, retryAfterSeconds: Math.max(1, Math.ceil(endsIn / 1000)) };
}
