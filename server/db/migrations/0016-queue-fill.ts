import { sql, type Kysely } from 'kysely';

/**
 * Large selections join a queue in the background (docs/decisions/016-job-queue.md): the queue keeps the
 * selection being added (its filter, and the moment it was asked, so a relative filter stays the same), how far the
 * job has come (the last contact added, in name order), how many it has added and expects, and the job's last error.
 * A queue with a selection set is filling; the walk can already call the contacts added so far.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table power_dialer_queues
      add column fill_selection jsonb,
      add column fill_asked_at timestamptz,
      add column fill_after_name text,
      add column fill_after_id uuid,
      add column fill_added integer not null default 0,
      add column fill_expected integer not null default 0,
      add column fill_error text check (length(fill_error) <= 1000);
  `.execute(db);
}
