import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { DbExecutor } from '../../db/database.ts';

type ContactIds = SelectQueryBuilder<Database, 'contacts', { id: string }>;

/** How many contacts a selection matches. */
export async function countSelected(db: DbExecutor, ids: ContactIds): Promise<number> {
  const counted = await db
    .selectFrom(ids.as('matching'))
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(counted.n);
}

/**
 * Records a background fill on the queue (the selection, as JSON, and how many it should add), from the start.
 * False when the queue already has one under way (a queue takes one at a time).
 */
export async function recordFill(
  db: DbExecutor,
  userId: string,
  queueId: string,
  selection: string,
  expected: number,
  now: Date,
): Promise<boolean> {
  const started = await db
    .updateTable('power_dialer_queues')
    .set({
      fill_selection: selection,
      fill_asked_at: now,
      fill_after_name: null,
      fill_after_id: null,
      fill_added: 0,
      fill_expected: expected,
      fill_error: null,
      last_modified: now,
    })
    .where('id', '=', queueId)
    .where('user_id', '=', userId)
    .where('fill_selection', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return started !== undefined;
}

/** A queue's background fill: its selection and how far it has come (none once finished); undefined: no queue. */
export async function findFill(db: DbExecutor, userId: string, queueId: string) {
  return db
    .selectFrom('power_dialer_queues')
    .select(['fill_selection', 'fill_asked_at', 'fill_after_name', 'fill_after_id'])
    .where('id', '=', queueId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/**
 * Adds the next `size` contacts of a selection after `after` (name order) to the queue, ignoring ones already in
 * it. Returns how many it looked at and added, and the last one (where the next chunk starts).
 */
export async function addFillChunk(
  db: DbExecutor,
  userId: string,
  queueId: string,
  matching: ContactIds,
  after: { name: string; id: string } | null,
  size: number,
) {
  const chunk = matching
    .select('contacts.name_sort')
    .$if(after !== null, (q) =>
      q.where(sql<boolean>`(contacts.name_sort, contacts.id) > (${after!.name}, ${after!.id}::uuid)`),
    )
    .orderBy('contacts.name_sort')
    .orderBy('contacts.id')
    .limit(size);
  const result = await sql<{ seen: number; added: number; last_name: string | null; last_id: string | null }>`
    with chunk as (${chunk}),
    inserted as (
      insert into queue_members (queue_id, contact_id, user_id)
      select ${queueId}, id, ${userId} from chunk order by name_sort, id
      on conflict (queue_id, contact_id) do nothing
      returning 1
    ),
    last as (select name_sort, id from chunk order by name_sort desc, id desc limit 1)
    select (select count(*)::int from chunk) as seen, (select count(*)::int from inserted) as added,
           (select name_sort from last) as last_name, (select id from last) as last_id`.execute(db);
  return result.rows[0]!;
}

/** The fill moves past a chunk (or ends, `finished`), counting what it added. */
export async function advanceFill(
  db: DbExecutor,
  queueId: string,
  step: { added: number; last_name: string | null; last_id: string | null },
  finished: boolean,
): Promise<void> {
  await db
    .updateTable('power_dialer_queues')
    .set((eb) => ({
      fill_added: eb('fill_added', '+', step.added),
      fill_after_name: finished ? null : step.last_name,
      fill_after_id: finished ? null : step.last_id,
      fill_error: null,
      ...(finished && { fill_selection: null, fill_asked_at: null }),
    }))
    .where('id', '=', queueId)
    .execute();
}

/** Why the fill stopped (the screens show it); cleared by its next successful chunk. */
export async function saveFillError(db: DbExecutor, queueId: string, message: string): Promise<void> {
  await db
    .updateTable('power_dialer_queues')
    .set({ fill_error: message.slice(0, 1000) })
    .where('id', '=', queueId)
    .execute();
}
