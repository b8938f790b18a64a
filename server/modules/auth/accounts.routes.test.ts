import { afterEach, describe, expect, it } from 'vitest';
import {
  asCookie,
  createFirstAdmin,
  createTestApp,
  PASSWORD,
  signIn,
  signUp,
  uniqueEmail,
  type TestContext,
} from '../../test/test-app.ts';
import { TEST_ORIGIN } from '../../test/test-constants.ts';

let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

const me = (c: TestContext, cookie: string) =>
  c.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
const roleOf = async (c: TestContext, id: string) =>
  (await c.db.admin.query<{ role: string }>('select role from user_profiles where id = $1', [id])).rows[0]
    ?.role;

describe('account lifecycle', () => {
  it('makes the first account admin, later ones pending, and approval lets them in with a notice', async () => {
    ctx = await createTestApp();
    const admin = await signUp(ctx.app, uniqueEmail('owner'));
    expect((await me(ctx, admin.cookie)).json()).toMatchObject({
      profile: { role: 'admin', email: admin.email },
    });

    const person = await signUp(ctx.app);
    expect((await me(ctx, person.cookie)).json()).toMatchObject({ profile: { role: 'pending' } });
    const blocked = await ctx.app.inject({
      method: 'GET',
      url: '/api/admin/stats',
      headers: asCookie(person),
    });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toMatchObject({ code: 'ACCOUNT_PENDING' });

    const approved = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/users/${person.userId}/approve`,
      headers: asCookie(admin),
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ profile: { role: 'user' } });

    const { rows } = await ctx.db.admin.query('select to_address, subject, kind from outbox_messages');
    expect(rows).toEqual([
      {
        to_address: person.email,
        subject: 'Your CallCRM account has been approved',
        kind: 'account-approved',
      },
    ]);

    const again = await signIn(ctx.app, person.email);
    expect(again.response.statusCode).toBe(200);
    expect((await me(ctx, again.cookie)).json()).toMatchObject({ profile: { role: 'user' } });
  });

  it('gives exactly one admin when several first sign-ups arrive at once', async () => {
    ctx = await createTestApp();
    const app = ctx.app;
    const sessions = await Promise.all(Array.from({ length: 6 }, () => signUp(app)));
    const { rows } = await ctx.db.admin.query<{ role: string; n: number }>(
      'select role, count(*)::int as n from user_profiles group by role order by role',
    );
    expect(sessions).toHaveLength(6);
    expect(rows).toEqual([
      { role: 'admin', n: 1 },
      { role: 'pending', n: 5 },
    ]);
  });

  it('makes ADMIN_EMAIL admin on sign-up and upgrades an existing profile of that address', async () => {
    const ownerEmail = uniqueEmail('owner');
    ctx = await createTestApp({ adminEmail: ownerEmail });
    await createFirstAdmin(ctx);
    const owner = await signUp(ctx.app, ownerEmail.toUpperCase());
    expect(await roleOf(ctx, owner.userId)).toBe('admin');

    await ctx.db.admin.query(`update user_profiles set role = 'pending' where id = $1`, [owner.userId]);
    expect((await me(ctx, owner.cookie)).json()).toMatchObject({ profile: { role: 'admin' } });
  });

  it('refuses a duplicate sign-up and a wrong password with the service codes the browser translates', async () => {
    ctx = await createTestApp();
    const person = await signUp(ctx.app);
    const duplicate = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { origin: TEST_ORIGIN },
      payload: { email: person.email, password: PASSWORD, name: '' },
    });
    expect(duplicate.statusCode).toBe(422);
    expect(duplicate.json().code).toMatch(/USER_ALREADY_EXISTS/);
    const wrong = await signIn(ctx.app, person.email, 'not the password');
    expect(wrong.response.statusCode).toBe(401);
    expect(wrong.response.json()).toMatchObject({ code: 'INVALID_EMAIL_OR_PASSWORD' });
  });

  it('signs out: the session stops working', async () => {
    ctx = await createTestApp();
    const person = await signUp(ctx.app);
    const out = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: asCookie(person),
      payload: {},
    });
    expect(out.statusCode).toBe(200);
    expect((await me(ctx, person.cookie)).statusCode).toBe(401);
  });

  it('stores passwords as argon2id hashes', async () => {
    ctx = await createTestApp();
    const person = await signUp(ctx.app);
    const { rows } = await ctx.db.admin.query<{ password: string }>(
      'select password from auth_accounts where user_id = $1',
      [person.userId],
    );
    expect(rows[0]?.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });
});

describe('deny and deactivate', () => {
  it('deny ends the live session at once and refuses sign-in with a clear message', async () => {
    ctx = await createTestApp();
    const admin = await createFirstAdmin(ctx);
    const person = await signUp(ctx.app);
    expect((await me(ctx, person.cookie)).statusCode).toBe(200);

    const denied = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/users/${person.userId}/deny`,
      headers: asCookie(admin),
    });
    expect(denied.json()).toMatchObject({ profile: { role: 'denied' } });
    expect((await me(ctx, person.cookie)).statusCode).toBe(401);

    const attempt = await signIn(ctx.app, person.email);
    expect(attempt.response.statusCode).toBe(403);
    expect(attempt.response.json()).toMatchObject({
      code: 'ACCOUNT_DENIED',
      message: expect.stringMatching(/denied/),
    });
    expect(attempt.cookie).not.toMatch(/session_token=[^;]+/);

    const pending = await ctx.app.inject({
      method: 'GET',
      url: '/api/admin/pending',
      headers: asCookie(admin),
    });
    expect(pending.json().users).toEqual([]);
  });

  it('deactivation ends sessions at once; reactivation lets the person sign in again', async () => {
    ctx = await createTestApp();
    const admin = await createFirstAdmin(ctx);
    const person = await signUp(ctx.app);
    await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/users/${person.userId}/approve`,
      headers: asCookie(admin),
    });

    const off = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/users/${person.userId}/deactivate`,
      headers: asCookie(admin),
    });
    expect(off.json()).toMatchObject({ profile: { deactivated: true, role: 'user' } });
    expect((await me(ctx, person.cookie)).statusCode).toBe(401);
    expect((await signIn(ctx.app, person.email)).response.json()).toMatchObject({
      code: 'ACCOUNT_DEACTIVATED',
    });

    await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/users/${person.userId}/reactivate`,
      headers: asCookie(admin),
    });
    const back = await signIn(ctx.app, person.email);
    expect(back.response.statusCode).toBe(200);
    expect((await me(ctx, back.cookie)).json()).toMatchObject({
      profile: { role: 'user', deactivated: false },
    });
  });
});

describe('password reset', () => {
  it('an admin link sets a new password once; old sessions end', async () => {
    ctx = await createTestApp();
    const admin = await createFirstAdmin(ctx);
    const person = await signUp(ctx.app);
    const link = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/users/${person.userId}/reset-link`,
      headers: asCookie(admin),
    });
    expect(link.statusCode).toBe(200);
    const token = new URL(link.json<{ url: string }>().url).searchParams.get('token');
    expect(token).toBeTruthy();

    const reset = (newPassword: string) =>
      ctx!.app.inject({
        method: 'POST',
        url: '/api/auth/reset-password',
        headers: { origin: TEST_ORIGIN },
        payload: { token, newPassword },
      });
    expect((await reset('a brand new password')).statusCode).toBe(200);
    expect((await reset('another new password')).statusCode).toBe(400);

    expect((await me(ctx, person.cookie)).statusCode).toBe(401);
    expect((await signIn(ctx.app, person.email, PASSWORD)).response.statusCode).toBe(401);
    expect((await signIn(ctx.app, person.email, 'a brand new password')).response.statusCode).toBe(200);
  });

  it('a reset requested by e-mail goes through system mail (the outbox when none is configured)', async () => {
    ctx = await createTestApp();
    const person = await signUp(ctx.app);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      headers: { origin: TEST_ORIGIN },
      payload: { email: person.email, redirectTo: '/reset-password' },
    });
    expect(response.statusCode).toBe(200);
    const { rows } = await ctx.db.admin.query<{ to_address: string; text_body: string }>(
      `select to_address, text_body from outbox_messages where kind = 'password-reset'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.to_address).toBe(person.email);
    expect(rows[0]?.text_body).toMatch(/http:\/\/localhost:3000\/reset-password\?token=\w+/);
  });
});
