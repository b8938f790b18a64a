import { afterEach, describe, expect, it } from 'vitest';
import { createAccount, createTestApp, signIn, signUp, type TestContext } from '../../test/test-app.ts';

let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

const DAY_MS = 24 * 3600 * 1000;
const me = (c: TestContext, cookie: string) =>
  c.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
const sessionsOf = async (c: TestContext, userId: string) =>
  (
    await c.db.admin.query<{ token: string; expires_at: Date }>(
      'select token, expires_at from auth_sessions where user_id = $1',
      [userId],
    )
  ).rows;
const sessionCookie = (cookie: string) => {
  const value = cookie.split('; ').find((c) => c.startsWith('callcrm.session_token='));
  if (!value) throw new Error('no session cookie');
  return decodeURIComponent(value.slice('callcrm.session_token='.length));
};
const withSessionValue = (value: string) => `callcrm.session_token=${encodeURIComponent(value)}`;

// Every signed-in request is checked in one statement when nothing about the session needs doing (decision 039);
// these are the cases where something does, and where the answer must not be taken from a cookie alone.
describe('the session check of every request', () => {
  it('stops answering a session the moment it is ended elsewhere', async () => {
    ctx = await createTestApp();
    const person = await createAccount(ctx, 'user');
    expect((await me(ctx, person.cookie)).statusCode).toBe(200);

    await ctx.db.admin.query('delete from auth_sessions where user_id = $1', [person.userId]);
    const after = await me(ctx, person.cookie);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it("refuses a cookie whose signature is not the server's, and another session's token under a valid signature", async () => {
    ctx = await createTestApp();
    const person = await createAccount(ctx, 'user');
    const other = await createAccount(ctx, 'user');
    const [token, signature] = sessionCookie(person.cookie).split('.') as [string, string];
    const otherToken = sessionCookie(other.cookie).split('.')[0]!;
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);

    for (const forged of [`${token}.${flipped}`, `${otherToken}.${signature}`, token, `${token}.`]) {
      const answer = await me(ctx, withSessionValue(forged));
      expect(answer.statusCode, forged).toBe(401);
    }
    // The real one still works, and the other person is still themself.
    expect((await me(ctx, person.cookie)).json()).toMatchObject({ profile: { id: person.userId } });
    expect((await me(ctx, other.cookie)).json()).toMatchObject({ profile: { id: other.userId } });
  });

  it('renews a session that is a day old, with a new cookie, as the sign-in service always has', async () => {
    ctx = await createTestApp();
    const person = await createAccount(ctx, 'user');
    // Made a little over a day ago: seven days from then, less a day and a minute from now.
    const madeAgo = DAY_MS + 60_000;
    await ctx.db.admin.query('update auth_sessions set expires_at = $2 where user_id = $1', [
      person.userId,
      new Date(Date.now() + 7 * DAY_MS - madeAgo),
    ]);

    const answer = await me(ctx, person.cookie);
    expect(answer.statusCode).toBe(200);
    expect(String(answer.headers['set-cookie'])).toContain('callcrm.session_token=');
    const [session] = await sessionsOf(ctx, person.userId);
    expect(session!.expires_at.getTime()).toBeGreaterThan(Date.now() + 7 * DAY_MS - 60_000);

    // Renewed, the next request needs nothing done and sets no cookie.
    const next = await me(ctx, person.cookie);
    expect(next.statusCode).toBe(200);
    expect(next.headers['set-cookie']).toBeUndefined();
  });

  it('refuses an expired session and removes it', async () => {
    ctx = await createTestApp();
    const person = await createAccount(ctx, 'user');
    await ctx.db.admin.query('update auth_sessions set expires_at = $2 where user_id = $1', [
      person.userId,
      new Date(Date.now() - 60_000),
    ]);

    expect((await me(ctx, person.cookie)).statusCode).toBe(401);
    expect(await sessionsOf(ctx, person.userId)).toEqual([]);
  });

  it('signs a deactivated account out of every session at its next request, whichever it uses', async () => {
    ctx = await createTestApp();
    const person = await createAccount(ctx, 'user');
    const second = await signIn(ctx.app, person.email);
    expect(await sessionsOf(ctx, person.userId)).toHaveLength(2);

    await ctx.db.admin.query('update user_profiles set deactivated_at = now() where id = $1', [
      person.userId,
    ]);
    const answer = await me(ctx, second.cookie);
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toMatchObject({ code: 'ACCOUNT_DEACTIVATED' });
    expect(await sessionsOf(ctx, person.userId)).toEqual([]);
    expect((await me(ctx, person.cookie)).statusCode).toBe(401);
  });

  it("upgrades ADMIN_EMAIL's account to admin at its next request", async () => {
    ctx = await createTestApp({ adminEmail: 'boss@example.com' });
    await signUp(ctx.app);
    const boss = await createAccount(ctx, 'user', 'boss@example.com');
    expect((await me(ctx, boss.cookie)).json()).toMatchObject({ profile: { role: 'admin' } });
  });
});
