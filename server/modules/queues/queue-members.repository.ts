import { sql } from 'kysely';
import {
  CLAIM_STALE_AFTER_MS,
  WAITING_COUNTED,
  type SkipReason,
  type WalkContact,
} from '#domain/dialer/queue-walk.ts';
import type { DbExecutor } from '../../db/database.ts';

const CONTACT_COLUMNS = [
  'c.id',
  'c.first_name as firstName',
  'c.last_name as lastName',
  'c.phone',
  'c.email',
  'c.company',
  'c.title',
] as const;

/** The open contact this walker holds, if any (a reload, or the same tab asking again). */
export async function heldContact(
  db: DbExecutor,
  queueId: string,
  walker: string,
): Promise<WalkContact | undefined> {
  return db
    .selectFrom('queue_members as m')
    .innerJoin('contacts as c', 'c.id', 'm.contact_id')
    .select(CONTACT_COLUMNS)
    .where('m.queue_id', '=', queueId)
    .where('m.claimed_by', '=', walker)
    .where('m.completed', '=', false)
    .orderBy('m.position')
    .limit(1)
    .executeTakeFirst();
}

/**
 * The queue's next open members, in queue order, that this walker may take: nobody else holds them (a hold gone
 * stale counts as nobody's) and none waits for its calling hours.
 */
export async function findOpenMembers(
  db: DbExecutor,
  queueId: string,
  walker: string,
  staleBefore: Date,
  limit: number,
) {
  return db
    .selectFrom('queue_members as m')
    .innerJoin('contacts as c', 'c.id', 'm.contact_id')
    .select([...CONTACT_COLUMNS, 'm.position'])
    .where('m.queue_id', '=', queueId)
    .where('m.completed', '=', false)
    .where('m.wait_until', 'is', null)
    .where((eb) =>
      eb.or([
        eb('m.claimed_by', 'is', null),
        eb('m.claimed_at', '<', staleBefore),
        eb('m.claimed_by', '=', walker),
      ]),
    )
    .orderBy('m.position')
    .limit(limit)
    .execute();
}

/** Each holder holds its member (the contact it is on): a walk's one, a Parallel round's lines, in one statement. */
export async function holdMembers(
  db: DbExecutor,
  queueId: string,
  holds: readonly { contactId: string; holder: string }[],
  now: Date,
): Promise<void> {
  if (holds.length === 0) return;
  await sql`
    update queue_members m set claimed_by = h.holder, claimed_at = ${now}
    from unnest(${holds.map((h) => h.contactId)}::uuid[], ${holds.map((h) => h.holder)}::uuid[]) as h (contact_id, holder)
    where m.queue_id = ${queueId} and m.contact_id = h.contact_id`.execute(db);
}

/** Renews this walker's hold, so it does not go stale while the dialer is open. */
export async function renewHold(db: DbExecutor, queueId: string, walker: string, now: Date): Promise<void> {
  await db
    .updateTable('queue_members')
    .set({ claimed_at: now })
    .where('queue_id', '=', queueId)
    .where('claimed_by', '=', walker)
    .where('completed', '=', false)
    .execute();
}

/** Marks members completed (and no longer held); how many were open. */
export async function completeMembers(
  db: DbExecutor,
  queueId: string,
  contactIds: readonly string[],
  now: Date,
  skipReason: SkipReason | null = null,
): Promise<number> {
  const result = await db
    .updateTable('queue_members')
    .set({ completed: true, completed_at: now, skip_reason: skipReason, claimed_by: null, claimed_at: null })
    .where('queue_id', '=', queueId)
    .where('contact_id', 'in', [...contactIds])
    .where('completed', '=', false)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Save & Exit: the walker lets go of what it holds; the progress (what is completed) is already stored. */
export async function releaseHolds(db: DbExecutor, queueId: string, walker: string): Promise<void> {
  await db
    .updateTable('queue_members')
    .set({ claimed_by: null, claimed_at: null })
    .where('queue_id', '=', queueId)
    .where('claimed_by', '=', walker)
    .execute();
}

/** How many open members another walker holds right now (a hold gone stale is nobody's), as a subquery. */
export function heldElsewhereQuery(db: DbExecutor, queueId: string, walker: string, now: Date) {
  return db
    .selectFrom('queue_members')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('queue_id', '=', queueId)
    .where('claimed_by', 'is not', null)
    .where('claimed_by', '<>', walker)
    .where('claimed_at', '>=', new Date(now.getTime() - CLAIM_STALE_AFTER_MS))
    .where('completed', '=', false);
}

/** Start over: every member open again, nobody holding any, the stored index back to 0. */
export async function restartQueue(db: DbExecutor, queueId: string, now: Date): Promise<void> {
  await db
    .updateTable('queue_members')
    .set({
      completed: false,
      completed_at: null,
      skip_reason: null,
      claimed_by: null,
      claimed_at: null,
      wait_until: null,
      wait_reason: null,
    })
    .where('queue_id', '=', queueId)
    .where((eb) =>
      eb.or([eb('completed', '=', true), eb('claimed_by', 'is not', null), eb('wait_until', 'is not', null)]),
    )
    .execute();
  await db
    .updateTable('power_dialer_queues')
    .set({ last_contact_index: 0, last_modified: now })
    .where('id', '=', queueId)
    .execute();
}

/**
 * The stored index: how far the walk has come; back to 0 when the queue is completed. The walk takes the queue's row
 * anyway, so the count changes left aside while the queue was busy are folded into it here (migration 0055).
 */
export async function storeWalkIndex(db: DbExecutor, queueId: string, now: Date): Promise<void> {
  await sql`
    with moved as (delete from queue_count_changes where queue_id = ${queueId} returning total, completed),
    aside as (select coalesce(sum(total), 0)::int as total, coalesce(sum(completed), 0)::int as completed from moved)
    update power_dialer_queues q
    set total_count = q.total_count + aside.total,
        completed_count = q.completed_count + aside.completed,
        last_contact_index = case when q.completed_count + aside.completed >= q.total_count + aside.total then 0
          else q.completed_count + aside.completed end,
        last_modified = ${now}
    from aside
    where q.id = ${queueId}`.execute(db);
}

/** Members whose wait is over (their calling hours have come) are offered again, in their place in the queue. */
export async function wakeWaitingMembers(db: DbExecutor, queueId: string, now: Date): Promise<void> {
  await db
    .updateTable('queue_members')
    .set({ wait_until: null, wait_reason: null })
    .where('queue_id', '=', queueId)
    .where('completed', '=', false)
    .where('wait_until', '<=', now)
    .execute();
}

/** Members the consent gate refused for now wait until a moment, with its words; nobody holds them meanwhile. */
export async function putMembersToWait(
  db: DbExecutor,
  queueId: string,
  waits: readonly { contactId: string; until: Date; reason: string }[],
): Promise<void> {
  if (waits.length === 0) return;
  await sql`
    update queue_members m set wait_until = w.until, wait_reason = w.reason, claimed_by = null, claimed_at = null
    from unnest(${waits.map((w) => w.contactId)}::uuid[], ${waits.map((w) => w.until.toISOString())}::timestamptz[],
      ${waits.map((w) => w.reason.slice(0, 300))}::text[]) as w(contact_id, until, reason)
    where m.queue_id = ${queueId} and m.contact_id = w.contact_id and not m.completed`.execute(db);
}

/** How many open members wait (up to WAITING_COUNTED), the first to be offered again and why; null when none does. */
export async function findWaiting(
  db: DbExecutor,
  queueId: string,
): Promise<{ count: number; reason: string; nextAt: string | null } | null> {
  const first = await db
    .selectFrom('queue_members')
    .select(['wait_until', 'wait_reason'])
    .where('queue_id', '=', queueId)
    .where('completed', '=', false)
    .where('wait_until', 'is not', null)
    .orderBy('wait_until')
    .limit(1)
    .executeTakeFirst();
  if (!first?.wait_until) return null;
  const counted = await sql<{ n: string }>`
    select count(*) as n from (select 1 from queue_members
      where queue_id = ${queueId} and not completed and wait_until is not null limit ${WAITING_COUNTED}) w`.execute(
    db,
  );
  return {
    count: Number(counted.rows[0]?.n ?? 0),
    reason: first.wait_reason ?? '',
    nextAt: first.wait_until.toISOString(),
  };
}
