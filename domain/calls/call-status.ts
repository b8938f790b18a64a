import { z } from 'zod';

/**
 * A call's life as telephony providers report it (Twilio's statuses; the simulator sends the same). Events may
 * arrive twice or out of order: the state only moves forward, and a finished call never reopens.
 */
export const CallStatusSchema = z.enum([
  'queued',
  'initiated',
  'ringing',
  'in-progress',
  'completed',
  'busy',
  'no-answer',
  'failed',
  'canceled',
]);
export type CallStatus = z.infer<typeof CallStatusSchema>;

/**
 * How far along each status is. An event moves a call only to a higher rank; the statuses of the last rank end it.
 * The one source of this rule: the server's SQL is generated from this table (calls.repository.ts).
 */
export const CALL_STATUS_RANK: Readonly<Record<CallStatus, number>> = {
  queued: 0,
  initiated: 1,
  ringing: 2,
  'in-progress': 3,
  completed: 4,
  busy: 4,
  'no-answer': 4,
  failed: 4,
  canceled: 4,
};
const RANK = CALL_STATUS_RANK;
export const FINISHED_RANK = 4;

export const isFinished = (status: CallStatus) => RANK[status] === FINISHED_RANK;

export const FINISHED_STATUSES: readonly CallStatus[] = CallStatusSchema.options.filter(isFinished);

/** Whether we placed a call or it came in to one of our numbers. */
export const CallDirectionSchema = z.enum(['outbound', 'inbound']);
export type CallDirection = z.infer<typeof CallDirectionSchema>;

/** The telephony providers a call can go through (README "Calling"). */
export const TelephonyProviderNameSchema = z.enum(['simulator', 'twilio']);
export type TelephonyProviderName = z.infer<typeof TelephonyProviderNameSchema>;

/** The status after an event: the event's, if it moves the call forward; otherwise the call stays as it is. */
export function advanceStatus(current: CallStatus, reported: CallStatus): CallStatus {
  if (isFinished(current)) return current;
  return RANK[reported] > RANK[current] ? reported : current;
}

/**
 * A call the provider never reports back on is closed after a bounded time: still setting up or ringing after
 * 2 minutes, or connected for more than 4 hours (no sales call lasts that long; a lost "completed" does).
 */
export const STALE_SETUP_MS = 2 * 60 * 1000;
export const STALE_CONNECTED_MS = 4 * 60 * 60 * 1000;

export function staleOutcome(
  call: { status: CallStatus; updatedAt: Date },
  now: Date,
): { status: CallStatus; reason: string } | null {
  if (isFinished(call.status)) return null;
  const age = now.getTime() - call.updatedAt.getTime();
  if (call.status === 'in-progress')
    return age > STALE_CONNECTED_MS
      ? { status: 'completed', reason: 'No end was reported; closed after 4 hours' }
      : null;
  return age > STALE_SETUP_MS
    ? { status: 'failed', reason: 'The telephony provider never reported back' }
    : null;
}

/** Seconds between two moments, never negative; whole seconds as providers report them. */
export const durationSeconds = (from: Date, to: Date) =>
  Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000));
