import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createTestApp, type Session, type TestContext } from '../test/test-app.ts';
import { TEST_ORIGIN } from '../test/test-constants.ts';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from './json-body.ts';

let ctx: TestContext;
let user: Session;

beforeAll(async () => {
  ctx = await createTestApp();
  user = await createAccount(ctx, 'user');
});
afterAll(() => ctx.close());

const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

describe('JSON nesting', () => {
  it('counts depth outside strings only, and stops at the limit', () => {
    expect(jsonDepthExceeds(deep(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDepthExceeds(deep(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify({ a: '[[[[[[', b: ['\\"[[['] }), 2)).toBe(false);
    expect(jsonDepthExceeds('{"a":{"b":{"c":1}}}', 2)).toBe(true);
  });

  it.each<[string, { origin?: string; signedIn?: boolean }]>([
    ['/api/telephony/simulator/status', {}],
    ['/api/telephony/simulator/sms-status', {}],
    ['/api/telephony/simulator/sms-inbound', {}],
    ['/api/auth/sign-out', { origin: TEST_ORIGIN }],
    ['/api/contacts', { origin: TEST_ORIGIN, signedIn: true }],
  ])('refuses a body nested 50,000 deep on %s with 400, never 500', async (url, headers) => {
    const response = await ctx.app.inject({
      method: 'POST',
      url,
      headers: {
        'content-type': 'application/json',
        ...(headers.origin && { origin: headers.origin }),
        ...(headers.signedIn && { cookie: user.cookie }),
      },
      payload: deep(50_000),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('still reads an honest body and refuses prototype poisoning', async () => {
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts',
      headers: { cookie: user.cookie, origin: TEST_ORIGIN },
      payload: { firstName: 'Nest', lastName: 'Ok', email: 'nest@example.com', phone: '5550001111' },
    });
    expect(created.statusCode).toBe(201);
    const poisoned = await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts',
      headers: { cookie: user.cookie, origin: TEST_ORIGIN, 'content-type': 'application/json' },
      payload: '{"firstName":"A","__proto__":{"admin":true}}',
    });
    expect(poisoned.statusCode).toBe(400);
  });
});

describe('security headers on early refusals', () => {
  const expectHeaders = (headers: Record<string, unknown>) => {
    expect(headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['cache-control']).toBe('no-store');
  };

  it('carries them on 401 (signed out)', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/contacts' });
    expect(response.statusCode).toBe(401);
    expectHeaders(response.headers);
  });

  it('carries them on the cross-site 403', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts',
      headers: { cookie: user.cookie, origin: 'https://evil.example' },
      payload: {},
    });
    expect(response.statusCode).toBe(403);
    expectHeaders(response.headers);
  });

  it('carries them on 413 (body too large)', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts',
      headers: {
        cookie: user.cookie,
        origin: TEST_ORIGIN,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ notes: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
    expectHeaders(response.headers);
  });
});
