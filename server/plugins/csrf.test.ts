import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFirstAdmin,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../test/test-app.ts';
import { TEST_ORIGIN } from '../test/test-constants.ts';

let ctx: TestContext;
let admin: Session;
let pending: Session;

beforeAll(async () => {
  ctx = await createTestApp();
  admin = await createFirstAdmin(ctx);
  pending = await createAccount(ctx, 'pending');
});
afterAll(() => ctx.close());

const role = async (id: string) =>
  (await ctx.db.admin.query('select role from user_profiles where id = $1', [id])).rows[0]?.role as string;

describe('cross-site request protection', () => {
  it('refuses a state-changing request from another origin and changes nothing', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/users/${pending.userId}/approve`,
      headers: { cookie: admin.cookie, origin: 'https://evil.example' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'CSRF_REJECTED' });
    expect(await role(pending.userId)).toBe('pending');
  });

  it('judges the route the router matched, not the raw path: percent-encoded /api is refused too', async () => {
    const waiting = await createAccount(ctx, 'pending');
    for (const path of ['/%61pi', '/ap%69', '/%61%70%69']) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: `${path}/admin/users/${waiting.userId}/approve`,
        headers: { cookie: admin.cookie, origin: 'https://evil.example' },
      });
      expect(response.statusCode, path).toBe(403);
      expect(response.json()).toMatchObject({ code: 'CSRF_REJECTED' });
    }
    expect(await role(waiting.userId)).toBe('pending');
  });

  it('refuses a state-changing request with neither Origin nor Referer', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/users/${pending.userId}/deny`,
      headers: { cookie: admin.cookie },
    });
    expect(response.statusCode).toBe(403);
    expect(await role(pending.userId)).toBe('pending');
  });

  it('refuses a cross-site sign-in form post', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { origin: 'https://evil.example' },
      payload: { email: admin.email, password: 'whatever-password' },
    });
    expect(response.statusCode).toBe(403);
  });

  it('accepts a same-origin request identified by its Referer', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/users/${pending.userId}/approve`,
      headers: { cookie: admin.cookie, referer: `${TEST_ORIGIN}/admin` },
    });
    expect(response.statusCode).toBe(200);
    expect(await role(pending.userId)).toBe('user');
  });

  it('issues the session cookie httpOnly and SameSite=Lax', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { origin: TEST_ORIGIN },
      payload: { email: admin.email, password: 'correct horse battery' },
    });
    const cookie = [response.headers['set-cookie']].flat().join('\n');
    expect(cookie).toMatch(/callcrm\.session_token=.*HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });
});
