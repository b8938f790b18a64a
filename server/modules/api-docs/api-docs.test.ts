import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';

type OpenApi = {
  openapi: string;
  paths: Record<string, Record<string, { tags?: string[]; security?: unknown[]; requestBody?: unknown }>>;
};

let ctx: TestContext;
let user: Session;
let pending: Session;

beforeAll(async () => {
  ctx = await createTestApp();
  user = await createAccount(ctx, 'user');
  pending = await createAccount(ctx, 'pending');
});
afterAll(() => ctx.close());

const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

describe('the API documents itself', () => {
  it('lists every API route, with its method, in the OpenAPI document', async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/openapi.json',
      headers: asCookie(user),
    });
    expect(response.statusCode).toBe(200);
    const doc = response.json<OpenApi>();
    expect(doc.openapi).toMatch(/^3\./);
    const routes = ctx.app.routeTable.filter(
      (r) => r.url.startsWith('/api/') && r.url !== '/api/openapi.json',
    );
    expect(routes.length).toBeGreaterThan(60);
    const missing = routes.filter((r) => !doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()]);
    expect(missing.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it('describes what a route takes from its validation schema, groups it, and marks what needs a session', async () => {
    const doc = (
      await ctx.app.inject({ method: 'GET', url: '/api/openapi.json', headers: asCookie(user) })
    ).json<OpenApi>();
    const create = doc.paths['/api/contacts']!.post!;
    expect(create.tags).toEqual(['contacts']);
    // A session or a personal API key (decision 033).
    expect(create.security).toEqual([{ session: [] }, { apiKey: [] }]);
    expect(JSON.stringify(create.requestBody)).toContain('firstName');
    expect(doc.paths['/api/health']!.get!.security).toBeUndefined();
  });

  it('is for approved accounts: signed out 401, pending 403', async () => {
    const signedOut = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(signedOut.statusCode).toBe(401);
    const waiting = await ctx.app.inject({
      method: 'GET',
      url: '/api/openapi.json',
      headers: asCookie(pending),
    });
    expect(waiting.statusCode).toBe(403);
  });

  it('shows the browsable reference to an approved account and sends anyone else to sign in', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/api-docs/', headers: asCookie(user) });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger-ui');
    const json = await ctx.app.inject({ method: 'GET', url: '/api-docs/json', headers: asCookie(user) });
    expect(json.json<OpenApi>().paths['/api/contacts']).toBeDefined();

    const stranger = await ctx.app.inject({ method: 'GET', url: '/api-docs/' });
    expect(stranger.statusCode).toBe(302);
    expect(stranger.headers.location).toBe('/auth');
    const strangerJson = await ctx.app.inject({ method: 'GET', url: '/api-docs/json' });
    expect(strangerJson.statusCode).toBe(401);
    const waiting = await ctx.app.inject({
      method: 'GET',
      url: '/api-docs/json',
      headers: asCookie(pending),
    });
    expect(waiting.statusCode).toBe(401);
  });
});
