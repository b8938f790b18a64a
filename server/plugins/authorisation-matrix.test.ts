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
 * Every API route × every kind of account → the expected answer. The table is read from the running app, so a new
 * route is in the matrix the moment it is registered (and cannot be registered without an access level).
 */
type Persona = 'anonymous' | 'pending' | 'user' | 'admin' | 'denied' | 'deactivated';
const PERSONAS: Persona[] = ['anonymous', 'pending', 'user', 'admin', 'denied', 'deactivated'];

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

beforeAll(async () => {
  ctx = await createTestApp();
  sessions.set('admin', await createFirstAdmin(ctx));
  sessions.set('anonymous', null);
  for (const persona of ['pending', 'user', 'denied', 'deactivated'] as const) {
    sessions.set(persona, await createAccount(ctx, persona));
  }
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
});
