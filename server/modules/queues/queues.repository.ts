import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { randomUUID } from 'node:crypto';
import { DEFAULT_QUEUE_ID, QUEUE_MESSAGES, type QueueSummary } from '#domain/contacts/queue.schema.ts';
import type { DialingSettings } from '#domain/dialer/parallel-dialing.schema.ts';
import { AppError } from '../../errors/app-error.ts';
import type { DbExecutor } from '../../db/database.ts';
import { orderedSelection } from '../contacts/public.ts';
import { heldElsewhereQuery } from './queue-members.repository.ts';

/**
 * Adds contacts to a queue in one statement; ids already there are ignored. `contactIds` is a
 * query or a list; only the user's own contacts are added.
 */
export async function addQueueMembers(
  db: DbExecutor,
  userId: string,
  queueId: string,
  contactIds: readonly string[] | SelectQueryBuilder<Database, 'contacts', { id: string }>,
): Promise<{ added: number; considered: number }> {
  // Members join in the order given (ticked ids), or in name order for a whole filter (as a background fill adds
  // them, queue-fill.ts), and keep that order.
  const source = orderedSelection(userId, contactIds);
  const result = await sql<{ added: number; considered: number }>`
    with candidates as (${source}),
    inserted as (insert into queue_members (queue_id, contact_id, user_id)
      select ${queueId}, id, ${userId} from candidates order by ordinal
      on conflict (queue_id, contact_id) do nothing
      returning 1
    )
    select (select count(*)::int from inserted) as added, (select count(*)::int from candidates) as considered`.execute(
    db,
  );
  await db
    .updateTable('power_dialer_queues')
    .set({ last_modified: new Date() })
    .where('id', '=', queueId)
    .execute();
  return result.rows[0] ?? { added: 0, considered: 0 };
}

function summaries(db: DbExecutor, userId: string) {
  return db
    .selectFrom('power_dialer_queues as q')
    .leftJoinLateral(
      () =>
        sql<{
          total: number;
          completed: number;
        }>`(select sum(c.total)::int as total, sum(c.completed)::int as completed
          from queue_count_changes c where c.queue_id = q.id)`.as('aside'),
      (join) => join.onTrue(),
    )
    .select([
      'q.id',
      'q.queue_id',
      'q.queue_name',
      'q.created_at',
      'q.project_id',
      // Kept by triggers on queue_members (migrations 0012, 0055): no counting of a million rows per read; the
      // changes a busy queue left aside are added.
      sql<number>`q.total_count + coalesce(aside.total, 0)`.as('total'),
      sql<number>`q.completed_count + coalesce(aside.completed, 0)`.as('completed'),
      sql<boolean>`q.fill_selection is not null`.as('filling'),
      'q.fill_added',
      'q.fill_expected',
      'q.fill_error',
    ])
    .where('q.user_id', '=', userId);
}

const toSummary = (r: {
  id: string;
  queue_id: string;
  queue_name: string;
  created_at: Date;
  project_id: string | null;
  total: number;
  completed: number;
  filling: boolean;
  fill_added: number;
  fill_expected: number;
  fill_error: string | null;
}): QueueSummary => ({
  id: r.id,
  queueId: r.queue_id,
  name: r.queue_name,
  total: r.total,
  completed: r.completed,
  createdAt: r.created_at.toISOString(),
  projectId: r.project_id,
  filling: r.filling ? { added: r.fill_added, expected: r.fill_expected, error: r.fill_error } : null,
});

/** The user's queues, newest first, each with its total and completed counts. */
export async function findQueues(db: DbExecutor, userId: string): Promise<QueueSummary[]> {
  const rows = await summaries(db, userId).orderBy('q.created_at', 'desc').execute();
  return rows.map(toSummary);
}

/** One queue of the user with its counts, or NOT_FOUND 'Queue not found' (another user's queue is not found). */
export async function getQueueSummary(db: DbExecutor, userId: string, id: string): Promise<QueueSummary> {
  const row = await summaries(db, userId).where('q.id', '=', id).executeTakeFirst();
  if (!row) throw queueNotFound();
  return toSummary(row);
}

/**
 * One queue of the user with its counts and its dialing settings (docs/decisions/026-parallel-dialing-pacing.md), in
 * one read, or NOT_FOUND. `lock`: the row is locked as lockQueue locks it for a walk step (FOR NO KEY UPDATE), the
 * default queue included.
 */
export async function getQueueForDialing(
  db: DbExecutor,
  userId: string,
  id: string,
  options: { lock?: boolean } = {},
): Promise<{ summary: QueueSummary; settings: DialingSettings }> {
  const query = summaries(db, userId).select(['q.dial_mode', 'q.abandon_cap_percent']).where('q.id', '=', id);
  const row = await (options.lock ? query.forNoKeyUpdate('q') : query).executeTakeFirst();
  if (!row) throw queueNotFound();
  return {
    summary: toSummary(row),
    settings: {
      mode: row.dial_mode,
      capPercent: row.abandon_cap_percent === null ? null : Number(row.abandon_cap_percent),
    },
  };
}

/** One queue of the user with its counts and how many of its open members other walkers hold (a walk step's answer), in one read. */
export async function getWalkedQueue(
  db: DbExecutor,
  userId: string,
  id: string,
  walker: string,
  now: Date,
): Promise<{ summary: QueueSummary; heldElsewhere: number }> {
  const row = await summaries(db, userId)
    .select(heldElsewhereQuery(db, id, walker, now).as('held_elsewhere'))
    .where('q.id', '=', id)
    .executeTakeFirst();
  if (!row) throw queueNotFound();
  return { summary: toSummary(row), heldElsewhere: Number(row.held_elsewhere ?? 0) };
}

export const queueNotFound = () => new AppError('NOT_FOUND', 'Queue not found');

/** A new queue of the user under a generated queue id; its id. */
export async function insertQueue(
  db: DbExecutor,
  userId: string,
  name: string,
  projectId: string | null = null,
): Promise<string> {
  const row = await db
    .insertInto('power_dialer_queues')
    .values({ queue_id: `queue-${randomUUID()}`, queue_name: name, user_id: userId, project_id: projectId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The user's queue, locked for a change (rename, members, a walk step), or NOT_FOUND. The default queue is kept by the
 * CRM: asking to change it by hand is refused unless `allowDefault` (adding contacts to it is allowed).
 *
 * The lock is FOR NO KEY UPDATE: it orders walkers and changes among themselves but does not wait for a transaction
 * that only adds members (a background fill's chunk or an import holds a key-share lock on the queue for its
 * members' foreign key until it commits). Only deleting the queue (`forDelete`) needs the full FOR UPDATE.
 */
export async function lockQueue(
  db: DbExecutor,
  userId: string,
  id: string,
  options: { allowDefault?: boolean; forDelete?: boolean } = {},
): Promise<{ id: string; queueId: string }> {
  const query = db
    .selectFrom('power_dialer_queues')
    .select(['id', 'queue_id'])
    .where('user_id', '=', userId)
    .where('id', '=', id);
  const row = await (options.forDelete ? query.forUpdate() : query.forNoKeyUpdate()).executeTakeFirst();
  if (!row) throw queueNotFound();
  if (row.queue_id === DEFAULT_QUEUE_ID && !options.allowDefault)
    throw new AppError('CONFLICT', QUEUE_MESSAGES.defaultQueue);
  return { id: row.id, queueId: row.queue_id };
}

/** Sets a queue's name and project (the caller checked the project is the user's). */
export async function renameQueue(
  db: DbExecutor,
  id: string,
  name: string,
  projectId: string | null,
  now: Date,
): Promise<void> {
  await db
    .updateTable('power_dialer_queues')
    .set({ queue_name: name, project_id: projectId, last_modified: now })
    .where('id', '=', id)
    .execute();
}

/** Deletes a queue; its memberships go with it, calls and dispositions stay in the logs. */
export async function deleteQueue(db: DbExecutor, id: string): Promise<void> {
  await db.deleteFrom('power_dialer_queues').where('id', '=', id).execute();
}

/** Takes contacts out of a queue; how many were in it. */
export async function removeQueueMembers(
  db: DbExecutor,
  queueId: string,
  contactIds: readonly string[],
  now: Date,
): Promise<number> {
  const result = await db
    .deleteFrom('queue_members')
    .where('queue_id', '=', queueId)
    .where('contact_id', 'in', [...contactIds])
    .executeTakeFirst();
  await db.updateTable('power_dialer_queues').set({ last_modified: now }).where('id', '=', queueId).execute();
  return Number(result.numDeletedRows);
}

/**
 * A page of a queue's contacts in queue order, after a position (the cursor), only those `matching` a contact query
 * when one is given; the next cursor or null.
 */
export async function findQueueMembers(
  db: DbExecutor,
  queueId: string,
  after: string | undefined,
  limit: number,
  matching?: SelectQueryBuilder<Database, 'contacts', { id: string }>,
) {
  let query = db
    .selectFrom('queue_members as m')
    .innerJoin('contacts as c', 'c.id', 'm.contact_id')
    .select([
      'm.position',
      'm.completed',
      'c.id as contactId',
      'c.first_name as firstName',
      'c.last_name as lastName',
      'c.phone',
      'c.company',
    ])
    .where('m.queue_id', '=', queueId)
    .orderBy('m.position')
    .limit(limit + 1);
  if (after !== undefined) query = query.where('m.position', '>', after);
  if (matching) query = query.where('m.contact_id', 'in', matching);
  const rows = await query.execute();
  const page = rows.slice(0, limit);
  return {
    members: page.map(({ position: _position, ...member }) => member),
    next: rows.length > limit ? String(page[page.length - 1]!.position) : null,
  };
}

/**
 * The user's queue locked for its walk, or undefined when there is none (another user's, or deleted meanwhile): a
 * call or disposition made from a queue deleted mid-walk is still recorded, without the queue.
 */
export async function lockQueueIfAny(
  db: DbExecutor,
  userId: string,
  id: string,
): Promise<{ id: string; projectId: string | null } | undefined> {
  return db
    .selectFrom('power_dialer_queues')
    .select(['id', 'project_id as projectId'])
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .forNoKeyUpdate()
    .executeTakeFirst();
}

/** The contacts of a queue, as a query addQueueMembers takes (the caller checked the queue is the user's). */
export function queueContactIds(db: DbExecutor, queueId: string) {
  return db
    .selectFrom('contacts')
    .select('id')
    .where('id', 'in', db.selectFrom('queue_members').select('contact_id').where('queue_id', '=', queueId));
}
