/**
 * Sign-in rate limits (issue 2, ARCHITECTURE.md Accounts): failed sign-ins are counted per client IP and per
 * account within a sliding window; past the limit further attempts are refused until the oldest counted failure
 * leaves the window. Stored in the database, so the limit holds across server instances.
 */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
export const SIGN_IN_MAX_FAILURES_PER_ACCOUNT = 5;
export const SIGN_IN_MAX_FAILURES_PER_IP = 30;

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Decides from the failure times (ms since epoch, any order) inside the window whether another attempt may go.
 */
export function decideSignInAttempt(
  failureTimes: readonly number[],
  max: number,
  now: number,
): RateLimitDecision {
  const inWindow = failureTimes.filter((t) => t > now - SIGN_IN_WINDOW_MS && t <= now).sort((a, b) => a - b);
  if (inWindow.length < max) return { allowed: true };
  // The attempt becomes possible when enough failures have aged out to leave max - 1 in the window.
  const unlocking = inWindow[inWindow.length - max];
  const retryAt = (unlocking ?? now) + SIGN_IN_WINDOW_MS;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((retryAt - now) / 1000)) };
}

export const RATE_LIMITED_MESSAGE = 'Too many sign-in attempts. Please wait and try again later.';
