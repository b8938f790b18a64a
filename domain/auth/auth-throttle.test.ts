import { describe, expect, it } from 'vitest';
import {
  decidePasswordChange,
  decidePasswordResetMail,
  decideSignIn,
  decideSignUp,
  delayAfter,
  HOUR_MS,
  MAX_DELAY_MS,
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_IP,
  progressiveDelay,
  THROTTLE_WINDOW_MS,
  waitText,
  windowLimit,
  type AttemptHistory,
} from './auth-throttle.ts';

const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);
const times = (n: number, step = 1000, end = NOW - 1) => Array.from({ length: n }, (_, i) => end - i * step);
const history = (overrides: Partial<AttemptHistory>): AttemptHistory => ({
  client: [],
  ip: [],
  account: [],
  knownDevice: false,
  ...overrides,
});

describe('progressive delay per client', () => {
  it('lets five failures through, then doubles the wait from one second up to fifteen minutes', () => {
    expect([0, 4, 5, 6, 7, 14, 40].map(delayAfter)).toEqual([0, 0, 1000, 2000, 4000, 512_000, MAX_DELAY_MS]);
  });

  it('measures the wait from the last failure', () => {
    const failures = [NOW - 10_000, NOW - 9000, NOW - 8000, NOW - 7000, NOW - 6000, NOW - 3000];
    // six failures: the seventh attempt waits 2 s after the last one, which is 3 s ago
    expect(progressiveDelay(failures, NOW)).toEqual({ allowed: true });
    expect(progressiveDelay([...failures, NOW - 500], NOW)).toEqual({ allowed: false, retryAfterSeconds: 4 });
  });

  it('counts attempts stamped a moment after now (parallel attempts are decided one after another)', () => {
    const later = Array.from({ length: 5 }, (_, i) => NOW + 5 + i);
    expect(progressiveDelay(later, NOW)).toMatchObject({ allowed: false });
  });

  it('forgets failures older than the window', () => {
    expect(progressiveDelay(times(50, 1000, NOW - THROTTLE_WINDOW_MS - 1), NOW)).toEqual({ allowed: true });
  });
});

describe('sign-in', () => {
  it('refuses the sixth of many attempts made at once (they are all counted before any is checked)', () => {
    expect(decideSignIn(history({ client: times(5, 0) }), NOW)).toMatchObject({ allowed: false });
    expect(decideSignIn(history({ client: times(4, 0) }), NOW)).toEqual({ allowed: true });
  });

  it('lets a known browser in while the account is attacked from everywhere else', () => {
    const attacked = history({
      ip: times(500),
      account: times(MAX_FAILURES_PER_ACCOUNT * 3),
      knownDevice: true,
    });
    expect(decideSignIn(attacked, NOW)).toEqual({ allowed: true });
    expect(decideSignIn({ ...attacked, knownDevice: false }, NOW)).toMatchObject({ allowed: false });
  });

  it('limits one address guessing many accounts, and many addresses guessing one account', () => {
    expect(decideSignIn(history({ ip: times(MAX_FAILURES_PER_IP) }), NOW).allowed).toBe(false);
    expect(decideSignIn(history({ ip: times(MAX_FAILURES_PER_IP - 1) }), NOW).allowed).toBe(true);
    expect(decideSignIn(history({ account: times(MAX_FAILURES_PER_ACCOUNT) }), NOW).allowed).toBe(false);
  });
});

describe('other limits', () => {
  it('a sliding window says when the oldest counted attempt leaves it', () => {
    expect(windowLimit([NOW - 60_000, NOW - 1000], 2, HOUR_MS, NOW)).toEqual({
      allowed: false,
      retryAfterSeconds: 3540,
    });
    expect(windowLimit([NOW - HOUR_MS, NOW - 1000], 2, HOUR_MS, NOW)).toEqual({ allowed: true });
  });

  it('sign-up: ten an hour per address', () => {
    expect(decideSignUp(history({ ip: times(9) }), NOW).allowed).toBe(true);
    expect(decideSignUp(history({ ip: times(10) }), NOW).allowed).toBe(false);
  });

  it('password-reset mail: three an hour per account, ten per address', () => {
    expect(decidePasswordResetMail(history({ account: times(3) }), NOW).allowed).toBe(false);
    expect(decidePasswordResetMail(history({ ip: times(10) }), NOW).allowed).toBe(false);
    expect(decidePasswordResetMail(history({ account: times(2), ip: times(9) }), NOW).allowed).toBe(true);
  });

  it('change-password: five wrong current passwords in fifteen minutes', () => {
    expect(decidePasswordChange(history({ client: times(5) }), NOW).allowed).toBe(false);
    expect(decidePasswordChange(history({ client: times(4) }), NOW).allowed).toBe(true);
  });

  it('says the wait as a person reads it', () => {
    expect([1, 40, 60, 61, 900].map(waitText)).toEqual([
      '1 second',
      '40 seconds',
      '1 minute',
      '2 minutes',
      '15 minutes',
    ]);
  });
});
