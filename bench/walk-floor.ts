import type pg from 'pg';

/**
 * The floor of one step of a queue walk, straight on the database: lock the queue, look ahead 50 open members with
 * their contact's fields and do-not-call state, hold the first, read the counts.
 */
export async function walkFloorStep(
  owner: pg.Pool,
  queueId: string,
  walker: string,
  contactColumns: string,
): Promise<void> {
  const client = await owner.connect();
  try {
    await client.query('begin');
    await client.query('select id from power_dialer_queues where id = $1 for update', [queueId]);
    const next = await client.query<{ id: string }>(
      `select ${contactColumns}, d.number_e164 is not null as dnc
       from queue_members m join contacts c on c.id = m.contact_id
       left join do_not_call d on d.user_id = m.user_id and d.number_e164 = c.phone_e164
       where m.queue_id = $1 and not m.completed and (m.claimed_by is null or m.claimed_by = $2)
       order by m.position limit 50`,
      [queueId, walker],
    );
    await client.query(
      `update queue_members set claimed_at = now() where queue_id = $1 and contact_id = $2`,
      [queueId, next.rows[0]!.id],
    );
    await client.query(
      `select q.total_count + coalesce(aside.total, 0), q.completed_count + coalesce(aside.completed, 0)
       from power_dialer_queues q
       left join lateral (select sum(c.total)::int as total, sum(c.completed)::int as completed
         from queue_count_changes c where c.queue_id = q.id) aside on true
       where q.id = $1`,
      [queueId],
    );
    await client.query('commit');
  } finally {
    client.release();
  }
}
