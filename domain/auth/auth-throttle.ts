/**
 * Throttling of authentication (docs/decisions/011-hardening.md). Every attempt is recorded before it is
 * checked, so attempts made at the same moment all count; these rules decide from the recorded attempts whether one
 * more may go, and if not, when.
 *
 * Sign-in slows an attacker without locking the owner out:
 *  - Each client of an account (its known browser, or else its IP address) gets 5 failures free; after that each
 *    attempt waits twice as long as the one before (1 s, 2 s, 4 s … up to 15 minutes) after the last failure.
 *    A success clears that client's failures.
 *  - A browser that has signed in to the account before is a known device: only its own failures slow it down, so
 *    the owner gets in from their own browser while the account is attacked from elsewhere.
 *  - Unknown clients are also limited per IP address (30 failures in 15 minutes, over all accounts: one address
 *    guessing many accounts) and per account (100 failures in 15 minutes from all unknown clients: many addresses
 *    guessing one account).
 * Sign-up: 10 per IP address an hour. Password-reset mail: 3 per account and 10 per IP address an hour, counted
 * whether or not the account exists, so the limit tells nothing about who has one. Change-password: 5 wrong current
 * passwords in 15 minutes per account.
 */
export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const HOUR_MS = 60 * 60 * 1000;
export const FREE_FAILURES_PER_CLIENT = 5;
export const MAX_DELAY_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_IP = 30;
export const MAX_FAILURES_PER_ACCOUNT = 100;
export const MAX_SIGN_UPS_PER_IP = 10;
export const MAX_RESET_MAILS_PER_ACCOUNT = 3;
export const MAX_RESET_MAILS_PER_IP = 10;
export const MAX_PASSWORD_CHANGE_FAILURES = 5;

export type ThrottleDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const ALLOWED: ThrottleDecision = { allowed: true };
const refusedUntil = (at: number, now: number): ThrottleDecision => ({
  allowed: false,
  retryAfterSeconds: Math.max(1, Math.ceil((at - now) / 1000)),
});

/**
 * Counted attempts (ms since epoch) inside the window ending now, oldest first. An attempt stamped after `now` still
 * counts: parallel attempts are stamped when they arrive but decided one after another, so an earlier-stamped one
 * may be decided after later-stamped ones are recorded.
 */
const inWindow = (times: readonly number[], windowMs: number, now: number) =>
  times.filter((t) => t > now - windowMs).sort((a, b) => a - b);

/** At most `max` attempts in a sliding window; past it, wait until enough of them leave the window. */
export function windowLimit(
  times: readonly number[],
  max: number,
  windowMs: number,
  now: number,
): ThrottleDecision {
  const counted = inWindow(times, windowMs, now);
  if (counted.length < max) return ALLOWED;
  return refusedUntil(counted[counted.length - max]! + windowMs, now);
}

/** The delay after `failures` failures in a row: none for the free ones, then doubling from a second. */
export function delayAfter(failures: number): number {
  if (failures < FREE_FAILURES_PER_CLIENT) return 0;
  return Math.min(MAX_DELAY_MS, 1000 * 2 ** Math.min(30, failures - FREE_FAILURES_PER_CLIENT));
}

/** A client's progressive delay: the next attempt waits delayAfter(n) after the last of its n failures. */
export function progressiveDelay(failureTimes: readonly number[], now: number): ThrottleDecision {
  const counted = inWindow(failureTimes, THROTTLE_WINDOW_MS, now);
  const wait = delayAfter(counted.length);
  if (wait === 0) return ALLOWED;
  const retryAt = counted[counted.length - 1]! + wait;
  return now >= retryAt ? ALLOWED : refusedUntil(retryAt, now);
}

/** The strictest of several decisions: refused if any refuses, for the longest wait. */
export function strictest(decisions: readonly ThrottleDecision[]): ThrottleDecision {
  let wait = 0;
  for (const d of decisions) if (!d.allowed) wait = Math.max(wait, d.retryAfterSeconds);
  return wait > 0 ? { allowed: false, retryAfterSeconds: wait } : ALLOWED;
}

/** What the rules read: the times of counted attempts (failures, and attempts still being checked). */
export type AttemptHistory = {
  /** This client's (known browser's, else IP address's) attempts on this account. */
  client: readonly number[];
  /** This IP address's attempts from unknown clients, on any account. */
  ip: readonly number[];
  /** Attempts on this account from unknown clients, from anywhere. */
  account: readonly number[];
  knownDevice: boolean;
};

export function decideSignIn(history: AttemptHistory, now: number): ThrottleDecision {
  const own = progressiveDelay(history.client, now);
  if (history.knownDevice) return own;
  return strictest([
    own,
    windowLimit(history.ip, MAX_FAILURES_PER_IP, THROTTLE_WINDOW_MS, now),
    windowLimit(history.account, MAX_FAILURES_PER_ACCOUNT, THROTTLE_WINDOW_MS, now),
  ]);
}

export function decideSignUp(history: AttemptHistory, now: number): ThrottleDecision {
  return windowLimit(history.ip, MAX_SIGN_UPS_PER_IP, HOUR_MS, now);
}

export function decidePasswordResetMail(history: AttemptHistory, now: number): ThrottleDecision {
  return strictest([
    windowLimit(history.account, MAX_RESET_MAILS_PER_ACCOUNT, HOUR_MS, now),
    windowLimit(history.ip, MAX_RESET_MAILS_PER_IP, HOUR_MS, now),
  ]);
}

export function decidePasswordChange(history: AttemptHistory, now: number): ThrottleDecision {
  return windowLimit(history.client, MAX_PASSWORD_CHANGE_FAILURES, THROTTLE_WINDOW_MS, now);
}

/** "5 minutes", "40 seconds": how long to wait, as a person reads it. */
export function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

export const THROTTLE_MESSAGES = {
  'sign-in': (s: number) => `Too many sign-in attempts. Please wait ${waitText(s)} and try again.`,
  'sign-up': (s: number) =>
    `Too many accounts were created from this network. Please wait ${waitText(s)} and try again.`,
  'password-reset': (s: number) =>
    `Too many password reset e-mails were requested. Please wait ${waitText(s)} before asking again.`,
  'change-password': (s: number) =>
    `Too many wrong current passwords. Please wait ${waitText(s)} and try again.`,
} as const;
/** The steps of the sign-in service whose attempts are counted. */
export type AttemptKind = keyof typeof THROTTLE_MESSAGES;
