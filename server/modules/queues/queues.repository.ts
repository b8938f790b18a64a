import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { QueueSummary } from '#domain/contacts/queue.schema.ts';
import type { DbExecutor } from '../../db/database.ts';

/**
 * Adds contacts to a queue in one statement; ids already there are ignored (spec part 2 §2.3). `contactIds` is a
 * query or a list; only the user's own contacts are added.
 */
export async function addQueueMembers(
  db: DbExecutor,
  userId: string,
  queueId: string,
  contactIds: readonly string[] | SelectQueryBuilder<Database, 'contacts', { id: string }>,
): Promise<{ added: number; considered: number }> {
  const source = isIdList(contactIds)
    ? sql`select c.id from contacts c where c.user_id = ${userId} and c.id = any(${[...contactIds]}::uuid[])`
    : sql`select c.id from contacts c where c.user_id = ${userId} and c.id in (${contactIds})`;
  const result = await sql<{ added: number; considered: number }>`
    with candidates as (${source}),
    inserted as (
      insert into queue_members (queue_id, contact_id, user_id)
      select ${queueId}, id, ${userId} from candidates
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

export async function findQueues(db: DbExecutor, userId: string): Promise<QueueSummary[]> {
  const rows = await db
    .selectFrom('power_dialer_queues as q')
    .select([
      'q.id',
      'q.queue_id',
      'q.queue_name',
      'q.created_at',
      sql<number>`(select count(*)::int from queue_members m where m.queue_id = q.id)`.as('total'),
      sql<number>`(select count(*)::int from queue_members m where m.queue_id = q.id and m.completed)`.as(
        'completed',
      ),
    ])
    .where('q.user_id', '=', userId)
    .orderBy('q.created_at', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    queueId: r.queue_id,
    name: r.queue_name,
    total: r.total,
    completed: r.completed,
    createdAt: r.created_at.toISOString(),
  }));
}

export async function findQueue(
  db: DbExecutor,
  userId: string,
  id: string,
): Promise<{ id: string } | undefined> {
  return db
    .selectFrom('power_dialer_queues')
    .select('id')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
}

function isIdList(
  v: readonly string[] | SelectQueryBuilder<Database, 'contacts', { id: string }>,
): v is readonly string[] {
  return Array.isArray(v);
}
