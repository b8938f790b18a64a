import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_KEY_PATTERN, MAX_API_KEYS, type ApiKey } from '#domain/api-keys/api-key.ts';
import { buildContact, insertContact } from '../../test/contact-factory.ts';
import {
  asCookie,
  buildSecondInstance,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';

/*
 * Personal API keys (decision 033), through the real routes and PostgreSQL: made in a session and shown once, then
 * used with `Authorization: Bearer` on the API with the session's authorisation (the key's user's rows only),
 * within its scope and its own rate limit, never on the account's routes, refused the moment it is revoked.
 */

const LIMIT = 10;
let ctx: TestContext;
let rep: Session;
beforeEach(async () => {
  ctx = await createTestApp({ apiKeyRequestsPerMinute: LIMIT });
  rep = await createAccount(ctx, 'user');
});
afterEach(() => ctx.close());

const makeKey = async (who: Session, scope: 'read' | 'read-write', name = 'My script') => {
  const made = await ctx.app.inject({
    method: 'POST',
    url: '/api/api-keys',
    headers: asCookie(who),
    payload: { name, scope },
  });
  expect(made.statusCode, made.body).toBe(201);
  return made.json<{ key: ApiKey; secret: string }>();
};
/** A request as a script makes it: the key, no cookie, no Origin. */
const withKey = (
  secret: string,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) =>
  ctx.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${secret}` },
    ...(payload && { payload }),
  });
const listKeys = async (who: Session) =>
  (await ctx.app.inject({ method: 'GET', url: '/api/api-keys', headers: asCookie(who) })).json<{
    keys: ApiKey[];
  }>().keys;

describe('personal API keys', () => {
  it('is shown once, then lists, creates and changes only its own user’s contacts without a session', async () => {
    const own = await insertContact(ctx.app, rep, { firstName: 'Ada', lastName: 'Own' });
    const other = await createAccount(ctx, 'user');
    const theirs = await insertContact(ctx.app, other, { firstName: 'Zed', lastName: 'Theirs' });

    const { key, secret } = await makeKey(rep, 'read-write', 'Zapier');
    expect(secret).toMatch(API_KEY_PATTERN);
    expect(key).toMatchObject({
      name: 'Zapier',
      scope: 'read-write',
      hint: secret.slice(-4),
      lastUsedAt: null,
    });
    // Listed afterwards without the secret.
    const listed = await ctx.app.inject({ method: 'GET', url: '/api/api-keys', headers: asCookie(rep) });
    expect(listed.body).not.toContain(secret);
    expect(listed.json<{ keys: ApiKey[] }>().keys).toEqual([key]);

    const contacts = await withKey(secret, 'GET', '/api/contacts');
    expect(contacts.statusCode, contacts.body).toBe(200);
    const names = contacts.json<{ contacts: { firstName: string }[] }>().contacts.map((c) => c.firstName);
    expect(names).toEqual(['Ada']);
    expect((await withKey(secret, 'GET', `/api/contacts/${theirs.id}`)).statusCode).toBe(404);
    expect((await withKey(secret, 'GET', `/api/contacts/${own.id}`)).statusCode).toBe(200);

    // A write needs no Origin header: the key alone signs the request in.
    const created = await withKey(
      secret,
      'POST',
      '/api/contacts',
      buildContact({ firstName: 'Bea', lastName: 'Scripted' }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const { rows } = await ctx.db.admin.query<{ user_id: string }>(
      `select user_id from contacts where first_name = 'Bea'`,
    );
    expect(rows).toEqual([{ user_id: rep.userId }]);
    expect((await listKeys(rep))[0]!.lastUsedAt).toBe(ctx.clock.now().toISOString());
  });

  it('a read-only key reads but changes nothing', async () => {
    const { secret } = await makeKey(rep, 'read');
    expect((await withKey(secret, 'GET', '/api/contacts')).statusCode).toBe(200);
    const refused = await withKey(secret, 'POST', '/api/contacts', buildContact({ firstName: 'Nope' }));
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('read-only'),
    });
    const { rows } = await ctx.db.admin.query(`select 1 from contacts where first_name = 'Nope'`);
    expect(rows).toHaveLength(0);
  });

  it('never reaches the account, its keys, its event stream or administration', async () => {
    const { secret } = await makeKey(rep, 'read-write');
    for (const [method, url] of [
      ['GET', '/api/api-keys'],
      ['POST', '/api/api-keys'],
      ['GET', '/api/me'],
      ['GET', '/api/events'],
      ['GET', '/api/calendar-feed'],
      ['GET', '/api/admin/users'],
    ] as const) {
      const answer = await withKey(
        secret,
        method,
        url,
        method === 'POST' ? { name: 'x', scope: 'read' } : undefined,
      );
      expect(answer.statusCode, `${method} ${url}`).toBe(403);
    }
    // An administrator's key does not reach administration either.
    const admin = await createAccount(ctx, 'admin');
    const adminKey = await makeKey(admin, 'read-write');
    const adminRoute = await withKey(adminKey.secret, 'GET', '/api/admin/users');
    expect(adminRoute.statusCode).toBe(403);
    expect(adminRoute.json()).toMatchObject({
      message: 'API keys cannot reach this route: sign in to use it.',
    });
    expect((await listKeys(rep)).map((k) => k.name)).toEqual(['My script']);
  });

  it('a revoked, unknown or malformed key is refused, and never falls back to the cookie', async () => {
    const { key, secret } = await makeKey(rep, 'read-write');
    const other = await createAccount(ctx, 'user');
    // Only its owner revokes it.
    const foreign = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/api-keys/${key.id}`,
      headers: asCookie(other),
    });
    expect(foreign.statusCode).toBe(404);
    expect((await withKey(secret, 'GET', '/api/contacts')).statusCode).toBe(200);
    const revoked = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/api-keys/${key.id}`,
      headers: asCookie(rep),
    });
    expect(revoked.statusCode).toBe(204);
    const after = await withKey(secret, 'GET', '/api/contacts');
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({
      code: 'UNAUTHENTICATED',
      message: expect.stringContaining('not valid'),
    });
    expect(await listKeys(rep)).toEqual([]);

    for (const header of [
      'Bearer ccrm_short',
      `Bearer ${'ccrm_'.padEnd(48, 'A')}`,
      'Bearer ',
      'Bearer x\u0000y',
    ])
      expect(
        (await ctx.app.inject({ method: 'GET', url: '/api/contacts', headers: { authorization: header } }))
          .statusCode,
        header,
      ).toBe(401);
    // A bad key next to a good session cookie: the key decides.
    const mixed = await ctx.app.inject({
      method: 'GET',
      url: '/api/contacts',
      headers: { ...asCookie(rep), authorization: `Bearer ${secret}` },
    });
    expect(mixed.statusCode).toBe(401);
  });

  it('a deactivated or denied account’s key is refused as its sessions are', async () => {
    const { secret } = await makeKey(rep, 'read');
    await ctx.db.admin.query('update user_profiles set deactivated_at = now() where id = $1', [rep.userId]);
    expect((await withKey(secret, 'GET', '/api/contacts')).json()).toMatchObject({
      code: 'ACCOUNT_DEACTIVATED',
    });
    await ctx.db.admin.query(
      `update user_profiles set deactivated_at = null, role = 'denied' where id = $1`,
      [rep.userId],
    );
    expect((await withKey(secret, 'GET', '/api/contacts')).json()).toMatchObject({ code: 'ACCOUNT_DENIED' });
  });

  it('counts each key against its own limit per minute, shared by every instance', async () => {
    const first = await makeKey(rep, 'read');
    const second = await makeKey(rep, 'read');
    const other = await buildSecondInstance(ctx, { apiKeyRequestsPerMinute: LIMIT });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 1; i++) {
        const app = i % 2 === 0 ? ctx.app : other;
        const answer = await app.inject({
          method: 'GET',
          url: '/api/contacts/counts',
          headers: { authorization: `Bearer ${first.secret}` },
        });
        statuses.push(answer.statusCode);
        if (answer.statusCode === 429) {
          expect(answer.headers['retry-after']).toBe('60');
          expect(answer.json()).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 60 });
        }
      }
      expect(statuses).toEqual([...Array<number>(LIMIT).fill(200), 429]);
      // Another key has its own count; the first is free again once the minute is over.
      expect((await withKey(second.secret, 'GET', '/api/contacts/counts')).statusCode).toBe(200);
      ctx.clock.advance(59_000);
      const late = await withKey(first.secret, 'GET', '/api/contacts/counts');
      expect(late.statusCode).toBe(429);
      expect(late.headers['retry-after']).toBe('1');
      ctx.clock.advance(1_000);
      expect((await withKey(first.secret, 'GET', '/api/contacts/counts')).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('counts requests sent all at once exactly', async () => {
    const { secret } = await makeKey(rep, 'read');
    const answers = await Promise.all(
      Array.from({ length: 3 * LIMIT }, () => withKey(secret, 'GET', '/api/contacts/counts')),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2 * LIMIT);
  });

  it(`holds at ${MAX_API_KEYS} keys a user, however many are asked for at once`, async () => {
    const answers = await Promise.all(
      Array.from({ length: MAX_API_KEYS + 5 }, (_, i) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/api-keys',
          headers: asCookie(rep),
          payload: { name: `Key ${i}`, scope: 'read' },
        }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_API_KEYS);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
    expect(await listKeys(rep)).toHaveLength(MAX_API_KEYS);
    const bad = await ctx.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: asCookie(rep),
      payload: { name: '  ', scope: 'admin' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('the API reference says which routes take a key, and a key can read it', async () => {
    const { secret } = await makeKey(rep, 'read');
    const answer = await withKey(secret, 'GET', '/api/openapi.json');
    expect(answer.statusCode).toBe(200);
    const doc = answer.json<{
      info: { description: string };
      components: { securitySchemes: Record<string, { scheme?: string }> };
      paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>>;
    }>();
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ scheme: 'bearer' });
    expect(doc.info.description).toContain('Authorization: Bearer');
    const schemes = (path: string, method: string) =>
      (doc.paths[path]?.[method]?.security ?? []).flatMap((s) => Object.keys(s));
    expect(schemes('/api/contacts', 'get')).toEqual(['session', 'apiKey']);
    expect(schemes('/api/admin/users', 'get')).toEqual(['session']);
    expect(schemes('/api/api-keys', 'get')).toEqual(['session']);
  });
});
