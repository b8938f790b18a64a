import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Access } from './access-control.ts';
import { isProbedRoute } from '../test/route-fuzzer.ts';
import {
  asCookie,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type Session,
  type TestContext,
} from '../test/test-app.ts';

/**
 * Every API route × every kind of account, and every kind of API key → the expected answer. The table is read from
 * the running app, so a new route is in the matrix the moment it is registered (and cannot be registered without an
 * access level).
 */
type Persona = 'anonymous' | 'pending' | 'user' | 'admin' | 'denied' | 'deactivated';
const PERSONAS: Persona[] = ['anonymous', 'pending', 'user', 'admin', 'denied', 'deactivated'];
/** A script with a personal API key (decision 033): a user's read-only and read-write keys, an administrator's. */
type KeyPersona = 'user key (read)' | 'user key (read-write)' | 'admin key (read-write)';
const KEY_PERSONAS: KeyPersona[] = ['user key (read)', 'user key (read-write)', 'admin key (read-write)'];

/** Allowed means: not refused for identity (401) or permission (403). */
const ALLOWED: Record<Access, Persona[]> = {
  public: PERSONAS,
  session: ['pending', 'user', 'admin'],
  approved: ['user', 'admin'],
  admin: ['admin'],
};

/** Streams never end, so inject cannot wait for them; realtime.test.ts covers them for allowed personas. */
const STREAMING = new Set(['GET /api/events']);

let ctx: TestContext;
const sessions = new Map<Persona, Session | null>();
const keys = new Map<KeyPersona, string>();

async function makeKey(session: Session, scope: 'read' | 'read-write'): Promise<string> {
  const made = await ctx.app.inject({
    method: 'POST',
    url: '/api/api-keys',
    headers: asCookie(session),
    payload: { name: 'matrix', scope },
  });
  return made.json<{ secret: string }>().secret;
}

beforeAll(async () => {
  ctx = await createTestApp();
  sessions.set('admin', await createFirstAdmin(ctx));
  sessions.set('anonymous', null);
  for (const persona of ['pending', 'user', 'denied', 'deactivated'] as const) {
    sessions.set(persona, await createAccount(ctx, persona));
  }
  keys.set('user key (read)', await makeKey(sessions.get('user')!, 'read'));
  keys.set('user key (read-write)', await makeKey(sessions.get('user')!, 'read-write'));
  keys.set('admin key (read-write)', await makeKey(sessions.get('admin')!, 'read-write'));
});
afterAll(() => ctx.close());

function concreteUrl(url: string): string {
  return url
    .replace(':userId', '00000000-0000-4000-8000-000000000000')
    .replace(':id', '00000000-0000-4000-8000-000000000001')
    .replace(':queueId', '00000000-0000-4000-8000-000000000002')
    .replace(':campaignId', '00000000-0000-4000-8000-000000000003')
    .replace(':projectId', '00000000-0000-4000-8000-000000000004')
    .replace(':contactId', '00000000-0000-4000-8000-000000000005')
    .replace(':provider', 'simulator')
    .replace(':token', 'not-a-token');
}

describe('authorisation matrix', () => {
  it('covers every API route with an access level', () => {
    const apiRoutes = ctx.app.routeTable.filter((r) => r.url.startsWith('/api/'));
    expect(apiRoutes.length).toBeGreaterThan(15);
    for (const route of apiRoutes) expect(Object.keys(ALLOWED)).toContain(route.access);
  });

  it('answers each route for each persona as its access level says', async () => {
    const failures: string[] = [];
    // Sign-out ends the session it is called with: probe it last.
    const routes = ctx.app.routeTable
      .filter((r) => isProbedRoute(r.url))
      .sort((a, b) => Number(a.url.endsWith('/sign-out')) - Number(b.url.endsWith('/sign-out')));
    for (const route of routes) {
      for (const persona of PERSONAS) {
        const allowed = ALLOWED[route.access].includes(persona);
        if (allowed && STREAMING.has(`${route.method} ${route.url}`)) continue;
        // Denied and deactivated sessions are revoked on first use; re-create them so each probe is meaningful.
        const session =
          persona === 'denied' || persona === 'deactivated'
            ? await createAccount(ctx, persona)
            : sessions.get(persona);
        const response = await ctx.app.inject({
          method: route.method as 'GET',
          url: concreteUrl(route.url),
          headers: asCookie(session ?? null),
          ...(route.method === 'GET' ? {} : { payload: {} }),
        });
        const status = response.statusCode;
        const refused = status === 401 || status === 403;
        const label = `${route.method} ${route.url} as ${persona}: ${status}`;
        // 503 NOT_CONFIGURED is a deliberate answer (e.g. a browser-phone token on the simulator), not a crash.
        const notConfigured = status === 503 && response.json<{ code?: string }>().code === 'NOT_CONFIGURED';
        if (status >= 500 && !notConfigured) failures.push(`${label} (server error)`);
        else if (allowed && refused && route.access !== 'public')
          failures.push(`${label} (should be allowed)`);
        else if (!allowed && !refused) failures.push(`${label} (should be refused)`);
        else if (!allowed && persona === 'anonymous' && status !== 401)
          failures.push(`${label} (anonymous must get 401)`);
        else if (!allowed && (persona === 'pending' || persona === 'user') && status !== 403)
          failures.push(`${label} (must get 403)`);
      }
    }
    expect(failures).toEqual([]);
    // Every route × six personas, with a fresh denied and deactivated account each (a password hashed each time).
  }, 120_000);

  it('answers each route for each kind of API key as its reach and scope say', async () => {
    const failures: string[] = [];
    const routes = ctx.app.routeTable.filter((r) => isProbedRoute(r.url));
    expect(routes.filter((r) => r.apiKey).length).toBeGreaterThan(50);
    for (const route of routes) {
      for (const persona of KEY_PERSONAS) {
        const readOnly = persona === 'user key (read)';
        const allowed =
          route.access === 'public' ||
          (route.apiKey && (!readOnly || ['GET', 'HEAD'].includes(route.method)));
        if (allowed && STREAMING.has(`${route.method} ${route.url}`)) continue;
        // A script sends its key and nothing else: no cookie, no Origin.
        const response = await ctx.app.inject({
          method: route.method as 'GET',
          url: concreteUrl(route.url),
          headers: { authorization: `Bearer ${keys.get(persona)!}` },
          ...(route.method === 'GET' ? {} : { payload: {} }),
        });
        const status = response.statusCode;
        const label = `${route.method} ${route.url} with ${persona}: ${status}`;
        const notConfigured = status === 503 && response.json<{ code?: string }>().code === 'NOT_CONFIGURED';
        if (status >= 500 && !notConfigured) failures.push(`${label} (server error)`);
        else if (allowed && route.access !== 'public' && (status === 401 || status === 403))
          failures.push(`${label} (should be allowed)`);
        else if (!allowed && status !== 403) failures.push(`${label} (must get 403)`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
