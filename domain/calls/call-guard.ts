import { normalizePhone } from '../contacts/phone.ts';

/**
 * Duplicate-call prevention (decision 000 "Global call lock vs bulk calls"). The browser
 * checks as the spec says, and the server, the authority, checks the same rules against the database:
 * - the global lock: one call of this user being placed at a time; taken when a call starts, released when the
 *   provider accepts or refuses it, stale after 8 s;
 * - very recent: the same number called in the last 5 s;
 * - concurrent: a call to the same number still going on;
 * - the pair window: the same from/to pair within 15 s.
 * Bulk calls 1 s apart therefore all go through: each releases the lock before the next starts.
 */
export const GLOBAL_LOCK_MS = 8_000;
export const VERY_RECENT_MS = 5_000;
export const PAIR_WINDOW_MS = 15_000;
/** The browser waits this long before placing a call. */
export const CALL_DELAY_MS = 250;
export const REQUEST_ID_LENGTH = 8;
export const BULK_CALL_SPACING_MS = 1_000;

export type GuardCode =
  'GLOBAL_LOCK_ACTIVE' | 'VERY_RECENT_CALL' | 'CONCURRENT_CALL_PREVENTED' | 'DUPLICATE_CALL_PREVENTED';
export type GuardResult =
  { ok: true } | { ok: false; code: GuardCode; message: string; waitSeconds?: number };

/** What the guard needs to know: the lock, and the user's recent calls. */
export type GuardState = {
  lockTakenAt: Date | null;
  recentCalls: { to: string; from: string; startedAt: Date; active: boolean }[];
};

/** The messages of the prevention results. */
export const GUARD_MESSAGES: Record<GuardCode, (waitSeconds: number) => string> = {
  GLOBAL_LOCK_ACTIVE: () => 'Another call is currently being processed. Please try again.',
  VERY_RECENT_CALL: () => 'Please wait a moment before trying again',
  CONCURRENT_CALL_PREVENTED: () => 'A call to this number is already in progress',
  DUPLICATE_CALL_PREVENTED: (s) =>
    `This number was called recently. Please wait ${s} seconds before trying again.`,
};

const refuse = (code: GuardCode, waitSeconds = 0): GuardResult => ({
  ok: false,
  code,
  message: GUARD_MESSAGES[code](waitSeconds),
  ...(code === 'DUPLICATE_CALL_PREVENTED' ? { waitSeconds } : {}),
});

/** May this call go out now? Numbers are compared in their normalised form (decision 000). */
export function checkCall(call: { to: string; from: string }, state: GuardState, now: Date): GuardResult {
  const to = normalizePhone(call.to);
  const from = normalizePhone(call.from);
  const at = now.getTime();
  if (state.lockTakenAt && at - state.lockTakenAt.getTime() < GLOBAL_LOCK_MS)
    return refuse('GLOBAL_LOCK_ACTIVE');
  const sameNumber = state.recentCalls.filter((c) => normalizePhone(c.to) === to);
  if (sameNumber.some((c) => at - c.startedAt.getTime() < VERY_RECENT_MS)) return refuse('VERY_RECENT_CALL');
  if (sameNumber.some((c) => c.active)) return refuse('CONCURRENT_CALL_PREVENTED');
  const pair = sameNumber
    .filter((c) => normalizePhone(c.from) === from && at - c.startedAt.getTime() < PAIR_WINDOW_MS)
    .sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime())[0];
  if (pair) {
    const wait = Math.ceil((PAIR_WINDOW_MS - (at - pair.startedAt.getTime())) / 1000);
    return refuse('DUPLICATE_CALL_PREVENTED', wait);
  }
  return { ok: true };
}

/**
 * The server's answer for a refused call: DUPLICATE_PREVENTED for a number called too recently,
 * CONCURRENT_PREVENTED for a call already being placed or going on.
 */
export const serverCodeFor = (code: GuardCode): 'DUPLICATE_PREVENTED' | 'CONCURRENT_PREVENTED' =>
  code === 'VERY_RECENT_CALL' || code === 'DUPLICATE_CALL_PREVENTED'
    ? 'DUPLICATE_PREVENTED'
    : 'CONCURRENT_PREVENTED';

/** An 8-character request id: letters and digits. */
export function newRequestId(random: () => number = Math.random): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(
    { length: REQUEST_ID_LENGTH },
    () => alphabet[Math.floor(random() * alphabet.length)],
  ).join('');
}
export const REQUEST_ID_PATTERN = /^[a-z0-9]{8}$/;
