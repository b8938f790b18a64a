import { describe, expect, it } from 'vitest';
import { decideSignInAttempt, SIGN_IN_WINDOW_MS } from './sign-in-rate-limit.ts';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

describe('decideSignInAttempt', () => {
  it('allows attempts while the failures in the window stay under the limit', () => {
    expect(decideSignInAttempt([NOW - 1000, NOW - 2000], 3, NOW)).toEqual({ allowed: true });
  });

  it('refuses at the limit and says when the oldest counted failure leaves the window', () => {
    const failures = [NOW - 60_000, NOW - 30_000, NOW - 10_000];
    expect(decideSignInAttempt(failures, 3, NOW)).toEqual({
      allowed: false,
      retryAfterSeconds: (SIGN_IN_WINDOW_MS - 60_000) / 1000,
    });
  });

  it('ignores failures older than the window and ones in the future', () => {
    const failures = [NOW - SIGN_IN_WINDOW_MS - 1, NOW - SIGN_IN_WINDOW_MS, NOW + 5000, NOW - 1000];
    expect(decideSignInAttempt(failures, 2, NOW)).toEqual({ allowed: true });
  });

  it('allows again exactly when enough failures have aged out', () => {
    const failures = [NOW - 1000, NOW - 500];
    const later = NOW - 1000 + SIGN_IN_WINDOW_MS;
    expect(decideSignInAttempt(failures, 2, later - 1).allowed).toBe(false);
    expect(decideSignInAttempt(failures, 2, later).allowed).toBe(true);
  });

  it('never asks to wait less than a second', () => {
    const failures = [NOW - SIGN_IN_WINDOW_MS + 10, NOW - 5];
    expect(decideSignInAttempt(failures, 2, NOW)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });
});
