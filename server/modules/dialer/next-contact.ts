import {
  CLAIM_STALE_AFTER_MS,
  skipReasonFor,
  type SkippedContact,
  type SkipReason,
  type WalkContact,
} from '#domain/dialer/queue-walk.ts';
import type { DbExecutor } from '../../db/database.ts';
import { completeQueueMembers, findOpenMembers, holdMember } from '../queues/public.ts';

/** How many open members one look-ahead reads: skipped ones are completed together, then the first callable held. */
const LOOK_AHEAD = 50;

/**
 * The power dialer's next contact for this walker, in queue order: the first open member nobody else holds.
 * Members that cannot be called (skipReasonFor: no phone, or the number is on the user's do-not-call list) are
 * completed as skipped on the way and reported. The caller holds the queue's row lock, so two walkers never take
 * the same member.
 */
export async function takeNextContact(
  db: DbExecutor,
  queueId: string,
  walker: string,
  now: Date,
): Promise<{ contact: WalkContact | null; skipped: SkippedContact[] }> {
  const staleBefore = new Date(now.getTime() - CLAIM_STALE_AFTER_MS);
  const skipped: SkippedContact[] = [];
  for (;;) {
    const rows = await findOpenMembers(db, queueId, walker, staleBefore, LOOK_AHEAD);
    const skips: { contactId: string; reason: SkipReason }[] = [];
    let next: WalkContact | null = null;
    for (const { onDoNotCallList, ...contact } of rows) {
      const reason = skipReasonFor({ phone: contact.phone, onDoNotCallList });
      if (!reason) {
        next = contact;
        break;
      }
      skips.push({ contactId: contact.id, reason });
      skipped.push({
        contactId: contact.id,
        name: `${contact.firstName} ${contact.lastName}`.trim(),
        reason,
      });
    }
    for (const reason of ['no-phone', 'do-not-call'] as const) {
      const ids = skips.filter((s) => s.reason === reason).map((s) => s.contactId);
      if (ids.length > 0) await completeQueueMembers(db, queueId, ids, now, reason);
    }
    if (next) {
      await holdMember(db, queueId, next.id, walker, now);
      return { contact: next, skipped };
    }
    if (rows.length < LOOK_AHEAD) return { contact: null, skipped };
  }
}
