import { sql, type Kysely } from 'kysely';

/**
 * A queue's counts without a wait (decision 054): every statement on queue_members added its change to the queue's
 * row, so two transactions changing one queue's members took turns on that row: the second waited until the first
 * committed. A user whose contacts arrive a hundred a second (an integration through the API; every new contact
 * joins the default queue) had each save wait for the one before it to reach the disk, and under load the saves
 * queued behind each other.
 *
 * A statement now locks the queue's row only when nobody holds it (SKIP LOCKED): then it writes its change and every
 * change left aside before it to the row. When another transaction holds the row, the change is written aside, as a
 * row of its own in queue_count_changes, which nobody else ever waits for; the next statement to get the queue's row
 * folds it in. A reader adds the changes still aside to the row's counts (few: they exist only while the queue is
 * busy). Changes for a queue this transaction cannot see (deleted, or another user's) are dropped, as the update
 * they replace matched no row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table queue_count_changes (
      id bigint generated always as identity primary key,
      queue_id uuid not null,
      user_id uuid not null,
      total integer not null,
      completed integer not null
    );
    create index queue_count_changes_queue on queue_count_changes (queue_id) include (total, completed);

    alter table queue_count_changes enable row level security;
    alter table queue_count_changes force row level security;
    create policy queue_count_changes_owner on queue_count_changes
      using (user_id = nullif(current_setting('app.user_id', true), '')::uuid)
      with check (user_id = nullif(current_setting('app.user_id', true), '')::uuid);

    create or replace function queue_counts_apply(deltas jsonb) returns void language plpgsql as $$
    declare
      d record;
      owner uuid;
      folded record;
    begin
      for d in
        select (e->>'queue_id')::uuid as queue_id, (e->>'total')::int as total, (e->>'completed')::int as completed
        from jsonb_array_elements(deltas) e order by 1
      loop
        select user_id into owner from power_dialer_queues where id = d.queue_id;
        continue when owner is null;
        perform 1 from power_dialer_queues where id = d.queue_id for no key update skip locked;
        if found then
          with moved as (delete from queue_count_changes where queue_id = d.queue_id returning total, completed)
          select coalesce(sum(total), 0)::int as total, coalesce(sum(completed), 0)::int as completed
            into folded from moved;
          update power_dialer_queues
            set total_count = total_count + d.total + folded.total,
                completed_count = completed_count + d.completed + folded.completed
            where id = d.queue_id;
        else
          insert into queue_count_changes (queue_id, user_id, total, completed)
            values (d.queue_id, owner, d.total, d.completed);
        end if;
      end loop;
    end $$;
  `.execute(db);
}
