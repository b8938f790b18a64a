import {
  CLAIM_STALE_AFTER_MS,
  skipReasonFor,
  type SkippedContact,
  type SkipReason,
  type WalkContact,
  type WalkStep,
} from '#domain/dialer/queue-walk.ts';
import type { DbExecutor } from '../../db/database.ts';
import { decideForContacts, reachSettingsOf, recordDecisions, type Reach } from '../consent/public.ts';
import {
  completeQueueMembers,
  findOpenMembers,
  findWaiting,
  holdMembers,
  putMembersToWait,
  wakeWaitingMembers,
} from '../queues/public.ts';

/** The first look-ahead reads this many open members; each further one reads more, up to the largest. */
const FIRST_LOOK_AHEAD = 50;
const LARGEST_LOOK_AHEAD = 1_000;
/**
 * One request puts at most this many members to wait before answering that none is callable yet, so a queue whose
 * next thousands are all asleep answers quickly (the next request goes on from there: they wait out of the way).
 */
const MOST_PUT_TO_WAIT = 5_000;
/** A refusal for now that says no time (a state's daily limit, an unknown local time) is looked at again after this. */
const LOOK_AGAIN_AFTER_MS = 60 * 60_000;

/**
 * The power dialer's next contact for this walker, in queue order: the first open member nobody else holds that the
 * consent gate lets the user call now. Members it refuses for good (no number, a number that cannot be placed,
 * do-not-call) are completed as skipped on the way and reported with the gate's words. Members it refuses for now
 * (outside their calling hours, at their state's daily limit, local time unknown) wait, out of the walk's way, until
 * the moment they may be called (or an hour, when the gate names none), and are offered again then in their place.
 * The caller holds the queue's row lock, so two walkers never take the same member.
 */
export async function takeNextContact(
  db: DbExecutor,
  userId: string,
  queueId: string,
  walker: string,
  now: Date,
): Promise<{
  contact: WalkContact | null;
  /** The gate's facts and decision that let the contact be called (its number in E.164 among them). */
  reach?: Reach;
  skipped: SkippedContact[];
  waiting: WalkStep['waiting'];
}> {
  const { taken, skipped, waiting } = await takeNextContacts(db, userId, queueId, [walker], now);
  const first = taken[0];
  return { contact: first?.contact ?? null, ...(first && { reach: first.reach }), skipped, waiting };
}

/**
 * The next contacts in queue order for several holders at once (a Parallel round's lines, one hold each), the way
 * takeNextContact takes one: the first open members nobody else holds that the gate lets the user call now, read and
 * decided together, so a round of five lines costs one look-ahead instead of five. Fewer come back when the queue
 * has no more callable now.
 */
export async function takeNextContacts(
  db: DbExecutor,
  userId: string,
  queueId: string,
  holders: readonly string[],
  now: Date,
): Promise<{
  taken: { contact: WalkContact; reach: Reach | undefined; holder: string }[];
  skipped: SkippedContact[];
  waiting: WalkStep['waiting'];
}> {
  const staleBefore = new Date(now.getTime() - CLAIM_STALE_AFTER_MS);
  await wakeWaitingMembers(db, queueId, now);
  const settings = await reachSettingsOf(db, userId);
  const taken: { contact: WalkContact; reach: Reach | undefined; holder: string }[] = [];
  const skipped: SkippedContact[] = [];
  let putToWait = 0;
  let lookAhead = FIRST_LOOK_AHEAD;
  for (;;) {
    // Members taken in an earlier pass are held by now: they no longer come back as open to these holders.
    const rows = await findOpenMembers(db, queueId, holders[0]!, staleBefore, lookAhead);
    const reach = await decideForContacts(
      db,
      userId,
      rows.map((r) => r.id),
      'call',
      now,
      settings,
    );
    const skips: { contactId: string; reason: SkipReason }[] = [];
    const waits: { contactId: string; until: Date; reason: string }[] = [];
    const refused: { contactId: string; channel: 'call'; reach: Reach; waiting: boolean }[] = [];
    const takenNow: typeof taken = [];
    for (const { position: _position, ...contact } of rows) {
      if (taken.length + takenNow.length === holders.length) break;
      if (taken.some((t) => t.contact.id === contact.id)) continue;
      const found = reach.get(contact.id);
      const decision = found?.decision;
      if (!found || !decision || decision.allowed) {
        takenNow.push({ contact, reach: found, holder: holders[taken.length + takenNow.length]! });
        continue;
      }
      const reason = skipReasonFor(decision.code);
      refused.push({ contactId: contact.id, channel: 'call', reach: found, waiting: reason === null });
      if (reason) {
        skips.push({ contactId: contact.id, reason });
        skipped.push({
          contactId: contact.id,
          name: `${contact.firstName} ${contact.lastName}`.trim(),
          reason,
          text: decision.reason,
        });
      } else
        waits.push({
          contactId: contact.id,
          until: decision.retryAt ?? new Date(now.getTime() + LOOK_AGAIN_AFTER_MS),
          reason: decision.reason,
        });
    }
    for (const reason of ['no-phone', 'do-not-call', 'invalid-phone'] as const) {
      const ids = skips.filter((s) => s.reason === reason).map((s) => s.contactId);
      if (ids.length > 0) await completeQueueMembers(db, queueId, ids, now, reason);
    }
    await putMembersToWait(db, queueId, waits);
    await recordDecisions(db, userId, refused, now);
    putToWait += waits.length;
    await holdMembers(
      db,
      queueId,
      takenNow.map((t) => ({ contactId: t.contact.id, holder: t.holder })),
      now,
    );
    taken.push(...takenNow);
    if (taken.length === holders.length || rows.length < lookAhead || putToWait >= MOST_PUT_TO_WAIT)
      return { taken, skipped, waiting: await findWaiting(db, queueId) };
    lookAhead = Math.min(lookAhead * 4, LARGEST_LOOK_AHEAD);
  }
}
