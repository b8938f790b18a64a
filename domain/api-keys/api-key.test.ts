import { describe, expect, it } from 'vitest';
import { bearerToken, keyMayReach, rateVerdict, scopeAllows } from './api-key.ts';

describe('bearerToken', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['Basic dXNlcjpwYXNz', undefined],
    ['Bearer ccrm_abc', 'ccrm_abc'],
    ['bearer   ccrm_abc  ', 'ccrm_abc'],
    // A bearer header with nothing usable is still a key (an invalid one): the session is not consulted.
    ['Bearer ', ''],
    ['Bearer two words', undefined],
  ])('%j → %j', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });
});

describe('scopeAllows', () => {
  it.each([
    ['read', 'GET', true],
    ['read', 'HEAD', true],
    ['read', 'POST', false],
    ['read', 'DELETE', false],
    ['read-write', 'PATCH', true],
    ['read-write', 'GET', true],
  ] as const)('%s key, %s → %s', (scope, method, allowed) => {
    expect(scopeAllows(scope, method)).toBe(allowed);
  });
});

describe('keyMayReach', () => {
  it.each([
    ['/api/contacts', 'approved', false, true],
    ['/api/contacts/:id', 'approved', false, true],
    ['/api/calls', 'approved', false, true],
    ['/api/openapi.json', 'approved', true, true],
    ['/api/some-hidden-route', 'approved', true, false],
    ['/api/me', 'session', false, false],
    ['/api/admin/users', 'admin', false, false],
    ['/api/health', 'public', false, false],
    ['/api/api-keys', 'approved', false, false],
    ['/api/api-keys/:id', 'approved', false, false],
    ['/api/events', 'approved', false, false],
    ['/api/calls/voice-token', 'approved', false, false],
    ['/api/calendar-feed', 'approved', false, false],
    ['/api/slack/test', 'approved', false, false],
    ['/api/calendar-feeds-elsewhere', 'approved', false, true],
  ] as const)('%s (%s, hidden %s) → %s', (url, access, hidden, reach) => {
    expect(keyMayReach({ url, access, hidden })).toBe(reach);
  });
});

describe('rateVerdict', () => {
  const start = new Date('2026-11-28T10:00:00Z');
  it.each([
    [1, 0, true, 60],
    [600, 0, true, 60],
    [601, 0, false, 60],
    [601, 59_000, false, 1],
    [700, 59_900, false, 1],
  ])('request %i of the window, %i ms in → allowed %s, retry after %i s', (count, ms, allowed, retry) => {
    expect(rateVerdict({ startedAt: start, count }, new Date(start.getTime() + ms), 600)).toEqual({
      allowed,
      retryAfterSeconds: retry,
    });
  });
});
