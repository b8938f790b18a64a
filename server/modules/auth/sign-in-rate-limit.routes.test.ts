import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_MAX_FAILURES_PER_ACCOUNT, SIGN_IN_WINDOW_MS } from '#domain/auth/sign-in-rate-limit.ts';
import { createTestApp, signIn, signUp, uniqueEmail, type TestContext } from '../../test/test-app.ts';
import { TEST_ORIGIN } from '../../test/test-constants.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe('sign-in rate limit', () => {
  it('locks an account after repeated failures, even with the right password, until the window passes', async () => {
    const person = await signUp(ctx.app);
    for (let i = 0; i < SIGN_IN_MAX_FAILURES_PER_ACCOUNT; i++) {
      expect((await signIn(ctx.app, person.email, 'wrong password')).response.statusCode).toBe(401);
    }
    const locked = await signIn(ctx.app, person.email);
    expect(locked.response.statusCode).toBe(429);
    expect(locked.response.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(locked.response.headers['retry-after'])).toBeGreaterThan(0);

    ctx.clock.advance(SIGN_IN_WINDOW_MS + 1000);
    expect((await signIn(ctx.app, person.email)).response.statusCode).toBe(200);
  });

  it('counts per account: another account from the same place is not locked', async () => {
    const victim = await signUp(ctx.app);
    const other = await signUp(ctx.app);
    for (let i = 0; i < SIGN_IN_MAX_FAILURES_PER_ACCOUNT; i++)
      await signIn(ctx.app, victim.email, 'wrong password');
    expect((await signIn(ctx.app, victim.email)).response.statusCode).toBe(429);
    expect((await signIn(ctx.app, other.email)).response.statusCode).toBe(200);
  });

  it('limits one IP trying many accounts', async () => {
    ctx.clock.advance(SIGN_IN_WINDOW_MS + 1000);
    const ip = '203.0.113.9';
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        remoteAddress: ip,
        headers: { origin: TEST_ORIGIN },
        payload: { email: uniqueEmail('spray'), password: 'guess-guess' },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
  });

  it('keeps the count in the database, shared by every server instance', async () => {
    const person = await signUp(ctx.app);
    await signIn(ctx.app, person.email, 'wrong password');
    const { rows } = await ctx.db.admin.query(
      'select count(*)::int as n from sign_in_attempts where email = $1',
      [person.email],
    );
    expect(rows[0].n).toBe(1);
  });
});
