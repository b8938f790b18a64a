import { z } from 'zod';
import { QueueSummarySchema, type QueueSummary } from '../contacts/queue.schema.ts';
import type { ReachBlock } from '../consent/reach-decision.ts';

/**
 * Walking a call queue (decision 000 "Queue status", "The power dialer with no queue
 * chosen"; docs/decisions/015-queue-walks.md). Progress lives on the server: each member is completed or open; a
 * walker (one dialer tab or pop-out) holds the contact it is on, so two tabs never get the same one; contacts that
 * cannot be called are completed as skipped, with the reason shown.
 */

/** Toasts of a walk. */
export const WALK_MESSAGES = {
  saved: { title: 'Progress saved', description: 'You can resume this queue later.' },
  completed: 'Queue completed',
  allCalled: 'All contacts have been called',
  empty: 'No contacts found in this campaign',
  deleted: 'This queue was deleted. Choose another queue to keep calling.',
} as const;

/** A contact held by a walker that has not been heard from for this long may be taken by another walker. */
export const CLAIM_STALE_AFTER_MS = 10 * 60_000;
/** A walker renews its hold this often while its dialer is open. */
export const CLAIM_RENEW_EVERY_MS = 2 * 60_000;

/** Why a member of the queue was completed without a call (it will never be callable from this queue). */
export const SkipReasonSchema = z.enum(['no-phone', 'do-not-call', 'invalid-phone']);
export type SkipReason = z.infer<typeof SkipReasonSchema>;
export const SKIP_REASON_TEXT: Record<SkipReason, string> = {
  'no-phone': 'No phone number',
  'do-not-call': 'On the do-not-call list',
  'invalid-phone': 'Not a valid phone number',
};

/**
 * What the walk does with a member the consent gate refused: a refusal that lasts (no number, a number that cannot
 * be placed, do-not-call) completes it as skipped; one that passes (outside calling hours, a state's daily limit, a
 * local time not known yet) leaves it open, to be offered again when it may be called.
 */
export function skipReasonFor(code: ReachBlock): SkipReason | null {
  if (code === 'no-phone' || code === 'do-not-call' || code === 'invalid-phone') return code;
  return null;
}

/** The walker: a random id a dialer tab makes for itself and keeps for its life (and across reloads). */
export const WalkerSchema = z.object({ walker: z.uuid('Invalid walker id') });
export const CompleteMemberSchema = WalkerSchema.extend({ contactId: z.uuid('Invalid contact id') });

export const WalkContactSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string().nullable(),
  email: z.string(),
  company: z.string().nullable(),
  title: z.string().nullable(),
});
export type WalkContact = z.infer<typeof WalkContactSchema>;

export const SkippedContactSchema = z.object({
  contactId: z.string(),
  name: z.string(),
  reason: SkipReasonSchema,
  /** The gate's own words ('On your do-not-call list since 11/02/2026'). */
  text: z.string(),
});
export type SkippedContact = z.infer<typeof SkippedContactSchema>;

/** Where a walker stands: the queue's counts, the contact it holds (null when none is left for it). */
export const WalkStepSchema = z.object({
  queue: QueueSummarySchema,
  contact: WalkContactSchema.nullable(),
  /** Contacts completed as skipped while finding this one. */
  skipped: z.array(SkippedContactSchema),
  /** Open contacts another walker (tab or device) holds right now. */
  heldElsewhere: z.number().int(),
  /**
   * Open contacts passed over for now (outside their calling hours, at their state's daily limit, local time
   * unknown): how many were seen, the first one's reason, and the earliest moment one of them may be called.
   */
  waiting: z
    .object({ count: z.number().int(), reason: z.string(), nextAt: z.iso.datetime().nullable() })
    .nullable(),
});
export type WalkStep = z.infer<typeof WalkStepSchema>;

export const QueueStatusSchema = z.enum(['Not Started', 'In Progress', 'Completed', 'Adding Contacts']);
export type QueueStatus = z.infer<typeof QueueStatusSchema>;

/**
 * Decision 000 "Queue status": the truth, not always 'In Progress'. A queue whose contacts are still joining is
 * never 'Completed' (more are coming) and says so until it has started.
 */
export function queueStatus(
  queue: Pick<QueueSummary, 'total' | 'completed'> & { filling?: QueueSummary['filling'] },
): QueueStatus {
  if (queue.filling) return queue.completed === 0 ? 'Adding Contacts' : 'In Progress';
  if (queue.total > 0 && queue.completed >= queue.total) return 'Completed';
  return queue.completed === 0 ? 'Not Started' : 'In Progress';
}

/** Remaining = contacts minus completed; percent = completed / contacts, rounded, never past 100. */
export function queueProgress(queue: Pick<QueueSummary, 'total' | 'completed'>) {
  return {
    remaining: Math.max(0, queue.total - queue.completed),
    percent: queue.total === 0 ? 0 : Math.min(100, Math.round((queue.completed / queue.total) * 100)),
  };
}

/**
 * What the dialer says when every open contact it looked at must wait (outside their calling hours, at a state's
 * daily limit, local time unknown): how many, the first one's reason, and when the next may be called.
 */
/** At most this many waiting contacts are counted; more read as 'or more'. */
export const WAITING_COUNTED = 10_000;

export function waitingText(
  waiting: { count: number; reason: string; nextAt: string | null },
  timeOf: (iso: string) => string,
): string {
  const who =
    waiting.count === 1
      ? '1 contact is waiting'
      : waiting.count >= WAITING_COUNTED
        ? `${WAITING_COUNTED.toLocaleString('en-US')} or more contacts are waiting`
        : `${waiting.count.toLocaleString('en-US')} contacts are waiting`;
  const next = waiting.nextAt ? ` The next may be called at ${timeOf(waiting.nextAt)}.` : '';
  return `${who}: ${waiting.reason}.${next}`;
}
