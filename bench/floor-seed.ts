import type pg from 'pg';

/** Reps seeded in one statement: enough to keep both cores busy, few enough that no transaction grows huge. */
const REPS_A_STATEMENT = 10;

/**
 * The floor's data, set-based as a bulk load is done: the secondary indexes of contacts and queue members are
 * dropped, every rep's contacts inserted (two connections, a batch of reps a statement), their queues and queue
 * members likewise, then the indexes built again from their own definitions and everything analysed. Seeding is not
 * what is measured: no change notices for it (app.quiet). Returns each rep's queue id, by user id.
 */
export async function seedFloor(
  owner: pg.Pool,
  reps: { userId: string; mode: 'power' | 'parallel' }[],
  contactsPerRep: number,
  /** The number of the first of these reps on the floor (their phone numbers follow from it). */
  firstRep = 0,
): Promise<Map<string, string>> {
  const indexes = (
    await owner.query<{ name: string; definition: string }>(
      `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
       from pg_index i
       where i.indrelid in ('contacts'::regclass, 'queue_members'::regclass)
         and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
    )
  ).rows;
  for (const index of indexes) await owner.query(`drop index ${index.name}`);
  const batches: (typeof reps)[] = [];
  for (let i = 0; i < reps.length; i += REPS_A_STATEMENT) batches.push(reps.slice(i, i + REPS_A_STATEMENT));
  const queues = new Map<string, string>();
  await inParallel(owner, 2, batches, async (client, batch, b) => {
    const made = await client.query<{ id: string; user_id: string }>(
      `insert into power_dialer_queues (queue_id, queue_name, user_id, dial_mode)
       select 'queue-' || gen_random_uuid(), 'Floor', r.user_id, r.mode
       from unnest($1::uuid[], $2::text[]) as r(user_id, mode) returning id, user_id`,
      [batch.map((r) => r.userId), batch.map((r) => r.mode)],
    );
    for (const row of made.rows) queues.set(row.user_id, row.id);
    // The contacts and their queue members in one statement (no index to find them by until the end). Newest
    // first, as a queue made from the contact list is: positions follow the order of the insert.
    await client.query(
      `with added as (
         insert into contacts (user_id, first_name, last_name, email, phone, phone_e164, created_at, updated_at, last_synced_at)
         select r.user_id, 'Lead' || g, 'Floor', 'lead' || g || '@example.com',
           '555' || lpad(((r.n * 7919 + g) % 10000000)::text, 7, '0'),
           '+1555' || lpad(((r.n * 7919 + g) % 10000000)::text, 7, '0'),
           now() - make_interval(secs => g), now(), now()
         from unnest($1::uuid[], $2::int[]) as r(user_id, n) cross join generate_series(1, $3::int) g
         returning id, user_id, created_at)
       insert into queue_members (queue_id, contact_id, user_id)
       select q.id, a.id, a.user_id from added a join power_dialer_queues q on q.user_id = a.user_id
       where q.id = any($4::uuid[]) order by q.id, a.created_at desc`,
      [
        batch.map((r) => r.userId),
        batch.map((_, i) => firstRep + b * REPS_A_STATEMENT + i),
        contactsPerRep,
        made.rows.map((r) => r.id),
      ],
    );
  });
  await inParallel(owner, 2, indexes, async (client, index) => {
    await client.query(`set maintenance_work_mem = '1GB'`);
    await client.query(index.definition);
  });
  await owner.query('vacuum analyze');
  return queues;
}

/** Runs `work` on each item, `connections` at a time, each on a connection of its own with change notices off. */
async function inParallel<T>(
  owner: pg.Pool,
  connections: number,
  items: T[],
  work: (client: pg.PoolClient, item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      const client = await owner.connect();
      try {
        await client.query(`select set_config('app.quiet', 'on', false)`);
        while (next < items.length) {
          const i = next++;
          await work(client, items[i]!, i);
        }
      } finally {
        client.release();
      }
    }),
  );
}
