import { z } from 'zod';
import { QueueSummarySchema, type QueueSummary } from '../contacts/queue.schema.ts';

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

export const SkipReasonSchema = z.enum(['no-phone', 'do-not-call']);
export type SkipReason = z.infer<typeof SkipReasonSchema>;
export const SKIP_REASON_TEXT: Record<SkipReason, string> = {
  'no-phone': 'No phone number',
  'do-not-call': 'On the do-not-call list',
};

/** Which contact a phone number of the queue is: can it be called, and if not, why it is skipped. */
export function skipReasonFor(contact: {
  phone: string | null;
  onDoNotCallList: boolean;
}): SkipReason | null {
  if (!contact.phone?.trim()) return 'no-phone';
  if (contact.onDoNotCallList) return 'do-not-call';
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
