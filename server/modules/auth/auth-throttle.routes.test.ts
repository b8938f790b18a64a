import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FREE_FAILURES_PER_CLIENT,
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_IP,
  MAX_SIGN_UPS_PER_IP,
  THROTTLE_WINDOW_MS,
} from '#domain/auth/auth-throttle.ts';
import { createTestApp, PASSWORD, signUp, uniqueEmail, type TestContext } from '../../test/test-app.ts';
import { TEST_ORIGIN } from '../../test/test-constants.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

let nextIp = 1;
/** A fresh client address per test, so tests never share an IP's count. */
const freshIp = () => `198.51.100.${nextIp++}`;

const signIn = (email: string, password: string, ip: string, cookie?: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    remoteAddress: ip,
    headers: { origin: TEST_ORIGIN, ...(cookie && { cookie }) },
    payload: { email, password },
  });
const cookiesOf = (response: { headers: Record<string, unknown> }) =>
  [response.headers['set-cookie'] ?? []].flat().map(String);
const deviceCookieOf = (response: { headers: Record<string, unknown> }) =>
  cookiesOf(response)
    .find((c) => c.startsWith('callcrm.device='))
    ?.split(';')[0];

describe('sign-in throttling', () => {
  it('counts 150 parallel guesses before checking any: five are checked, the rest and the right password wait', async () => {
    const person = await signUp(ctx.app);
    const ip = freshIp();
    const guesses = Array.from({ length: 150 }, (_, i) =>
      signIn(person.email, i === 149 ? PASSWORD : `wrong guess ${i}`, ip),
    );
    const statuses = (await Promise.all(guesses)).map((r) => r.statusCode);
    const checked = statuses.filter((s) => s !== 429).length;
    expect(checked).toBeLessThanOrEqual(FREE_FAILURES_PER_CLIENT);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(150 - FREE_FAILURES_PER_CLIENT);
    expect(statuses[149]).toBe(429);
    const limited = await signIn(person.email, PASSWORD, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/wait/) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('slows one address by doubling waits, without locking the owner out from another address', async () => {
    const person = await signUp(ctx.app);
    const attacker = freshIp();
    for (let i = 0; i < FREE_FAILURES_PER_CLIENT; i++)
      expect((await signIn(person.email, 'wrong password', attacker)).statusCode).toBe(401);
    const first = await signIn(person.email, 'wrong password', attacker);
    expect(first.statusCode).toBe(429);
    expect(first.headers['retry-after']).toBe('1');
    ctx.clock.advance(1000);
    expect((await signIn(person.email, 'wrong password', attacker)).statusCode).toBe(401);
    const second = await signIn(person.email, 'wrong password', attacker);
    expect(second.headers['retry-after']).toBe('2');
    // The owner, elsewhere, signs in at once.
    expect((await signIn(person.email, PASSWORD, freshIp())).statusCode).toBe(200);
    ctx.clock.advance(THROTTLE_WINDOW_MS + 1000);
  });

  it('lets the owner in from a known browser while many addresses attack the account', async () => {
    const person = await signUp(ctx.app);
    const first = await signIn(person.email, PASSWORD, freshIp());
    expect(first.statusCode).toBe(200);
    const device = deviceCookieOf(first);
    expect(device).toMatch(/^callcrm\.device=[\w-]{16,}$/);
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++)
      await signIn(person.email, `guess ${i}`, `203.0.113.${i % 250}`);
    // From a new address, even the right password waits now; from the owner's own browser it does not.
    expect((await signIn(person.email, PASSWORD, freshIp())).statusCode).toBe(429);
    expect((await signIn(person.email, PASSWORD, freshIp(), device)).statusCode).toBe(200);
    ctx.clock.advance(THROTTLE_WINDOW_MS + 1000);
  });

  it('limits one address guessing many accounts', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i <= MAX_FAILURES_PER_IP; i++)
      statuses.push((await signIn(uniqueEmail('spray'), 'guess-guess', ip)).statusCode);
    expect(statuses.slice(0, MAX_FAILURES_PER_IP).every((s) => s === 401)).toBe(true);
    expect(statuses[MAX_FAILURES_PER_IP]).toBe(429);
  });

  it('keeps the count in the database, so every server instance sees it', async () => {
    const person = await signUp(ctx.app);
    await signIn(person.email, 'wrong password', freshIp());
    const { rows } = await ctx.db.admin.query(
      `select count(*)::int as n from auth_attempts where kind = 'sign-in' and account = $1 and outcome = 'failed'`,
      [person.email],
    );
    expect(rows[0].n).toBe(1);
  });

  it('never puts the session token in a JSON body: the cookie carries it', async () => {
    const email = uniqueEmail();
    const signedUp = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      remoteAddress: freshIp(),
      headers: { origin: TEST_ORIGIN },
      payload: { email, password: PASSWORD, name: 'Ann Able' },
    });
    expect(signedUp.statusCode).toBe(200);
    expect(signedUp.json()).not.toHaveProperty('token');
    expect(signedUp.json().user.email).toBe(email);
    const signedIn = await signIn(email, PASSWORD, freshIp());
    expect(signedIn.json()).not.toHaveProperty('token');
    expect(cookiesOf(signedIn).some((c) => c.includes('session_token='))).toBe(true);
    // get-session answers the session's details, but not its token.
    const cookie = cookiesOf(signedIn)
      .map((c) => c.split(';')[0]!)
      .join('; ');
    const token = decodeURIComponent(/session_token=([^;.]+)/.exec(cookie)![1]!);
    const session = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie },
    });
    expect(session.statusCode).toBe(200);
    expect(session.json().user.email).toBe(email);
    expect(session.json().session).toBeDefined();
    expect(session.json().session).not.toHaveProperty('token');
    expect(session.body).not.toContain(token);
  });
});

describe('other throttled steps', () => {
  it('limits sign-ups from one address', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i <= MAX_SIGN_UPS_PER_IP; i++) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        remoteAddress: ip,
        headers: { origin: TEST_ORIGIN },
        payload: { email: uniqueEmail('bulk'), password: PASSWORD, name: '' },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, MAX_SIGN_UPS_PER_IP).every((s) => s === 200)).toBe(true);
    expect(statuses[MAX_SIGN_UPS_PER_IP]).toBe(429);
  });

  it('sends at most three reset mails an hour for an account, however often they are asked for', async () => {
    const person = await signUp(ctx.app);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/request-password-reset',
        remoteAddress: `192.0.2.${i + 1}`,
        headers: { origin: TEST_ORIGIN },
        payload: { email: person.email, redirectTo: '/reset-password' },
      });
      statuses.push(response.statusCode);
    }
    const mails = await ctx.db.admin.query(
      `select count(*)::int as n from outbox_messages where to_address = $1 and kind = 'password-reset'`,
      [person.email],
    );
    expect(mails.rows[0].n).toBe(3);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);
  });

  it("limits guesses at the current password, and signs the account's other sessions out on a change", async () => {
    const person = await signUp(ctx.app);
    const other = await signIn(person.email, PASSWORD, freshIp());
    const otherCookie = cookiesOf(other)
      .map((c) => c.split(';')[0])
      .join('; ');
    const change = (currentPassword: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/change-password',
        headers: { origin: TEST_ORIGIN, cookie: person.cookie },
        payload: { currentPassword, newPassword: 'a brand new passphrase' },
      });
    for (let i = 0; i < 5; i++) expect((await change(`wrong ${i}`)).statusCode).toBe(400);
    expect((await change(PASSWORD)).statusCode).toBe(429);
    ctx.clock.advance(THROTTLE_WINDOW_MS + 1000);
    const changed = await change(PASSWORD);
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).not.toHaveProperty('token');
    const stale = await ctx.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: otherCookie } });
    expect(stale.statusCode).toBe(401);
  });
});

describe('behind a reverse proxy (TRUST_PROXY)', () => {
  let proxied: TestContext;
  beforeAll(async () => {
    proxied = await createTestApp({ trustProxy: 1 });
  });
  afterAll(() => proxied.close());

  const viaProxy = (email: string, forwardedFor: string, extra: Record<string, string> = {}) =>
    proxied.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      remoteAddress: '127.0.0.1',
      headers: { origin: TEST_ORIGIN, 'x-forwarded-for': forwardedFor, ...extra },
      payload: { email, password: 'wrong password' },
    });

  it('counts the address the proxy saw, not the left-most one a client wrote', async () => {
    const person = await signUp(proxied.app);
    for (let i = 0; i < FREE_FAILURES_PER_CLIENT; i++)
      expect((await viaProxy(person.email, `10.9.9.${i}, 203.0.113.50`)).statusCode).toBe(401);
    expect((await viaProxy(person.email, '1.2.3.4, 203.0.113.50')).statusCode).toBe(429);
    expect((await viaProxy(person.email, '203.0.113.50, 203.0.113.51')).statusCode).toBe(401);
  });

  it('believes no forwarding header from a client that reaches the server directly', async () => {
    const person = await signUp(proxied.app);
    for (let i = 0; i < FREE_FAILURES_PER_CLIENT; i++)
      await proxied.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        remoteAddress: '203.0.113.99',
        headers: { origin: TEST_ORIGIN, 'x-forwarded-for': `198.18.0.${i}` },
        payload: { email: person.email, password: 'wrong password' },
      });
    const again = await proxied.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      remoteAddress: '203.0.113.99',
      headers: { origin: TEST_ORIGIN, 'x-forwarded-for': '198.18.0.200' },
      payload: { email: person.email, password: 'wrong password' },
    });
    expect(again.statusCode).toBe(429);
  });

  it('marks cookies Secure when the proxy says the request came over https', async () => {
    const person = await signUp(proxied.app);
    const secure = await proxied.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      remoteAddress: '127.0.0.1',
      headers: {
        origin: 'https://localhost:3000',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'localhost:3000',
      },
      payload: { email: person.email, password: PASSWORD },
    });
    expect(secure.statusCode).toBe(200);
    const cookies = cookiesOf(secure);
    expect(cookies.length).toBeGreaterThan(1);
    for (const cookie of cookies) expect(cookie).toMatch(/;\s*Secure/i);
    expect(secure.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    const plain = await proxied.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      remoteAddress: '127.0.0.1',
      headers: { origin: TEST_ORIGIN },
      payload: { email: person.email, password: PASSWORD },
    });
    for (const cookie of cookiesOf(plain)) expect(cookie).not.toMatch(/;\s*Secure/i);
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });
});
