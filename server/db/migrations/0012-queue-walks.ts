import { sql, type Kysely } from 'kysely';

/**
 * Queue walks (docs/decisions/015-queue-walks.md):
 *  - each queue keeps its total and completed counts, maintained per statement by triggers on its members, so the
 *    queue list reads two columns instead of counting a million rows;
 *  - a member is completed (with when, and why when it was skipped: no phone, or on the do-not-call list) and may be
 *    claimed by one walker (a dialer tab) at a time; a claim left behind goes stale after a while;
 *  - calls and dispositions made from a queue carry its id (no foreign key: a deleted queue's calls stay in the logs
 *    with the id they were made under); calls keep the notes saved with their disposition.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table power_dialer_queues
      add column total_count integer not null default 0,
      add column completed_count integer not null default 0;

    alter table queue_members
      add column completed_at timestamptz,
      add column skip_reason text check (skip_reason in ('no-phone', 'do-not-call')),
      add column claimed_by uuid,
      add column claimed_at timestamptz;
    -- The walk's next contact: the first open member in queue order.
    create index queue_members_open_idx on queue_members (queue_id, position) where not completed;
    create index queue_members_claimed_idx on queue_members (queue_id, claimed_by) where claimed_by is not null;

    alter table call_dispositions alter column queue_id type uuid using null;
    create index call_dispositions_queue_idx on call_dispositions (queue_id, called_at desc) where queue_id is not null;
    alter table calls
      add column queue_id uuid,
      add column notes text check (length(notes) <= 10000);

    -- Counts follow every statement on queue_members. Queue rows are updated in id order, so two statements that
    -- touch the same queues take their locks in the same order.
    create function queue_counts_apply(deltas jsonb) returns void language plpgsql as $$
    declare
      d record;
    begin
      for d in
        select (e->>'queue_id')::uuid as queue_id, (e->>'total')::int as total, (e->>'completed')::int as completed
        from jsonb_array_elements(deltas) e order by 1
      loop
        update power_dialer_queues
          set total_count = total_count + d.total, completed_count = completed_count + d.completed
          where id = d.queue_id;
      end loop;
    end $$;

    create function queue_members_counted() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform queue_counts_apply(coalesce((select jsonb_agg(x) from (select queue_id, count(*) as total, count(*) filter (where completed) as completed
          from added group by queue_id) x), '[]'));
      elsif tg_op = 'DELETE' then
        perform queue_counts_apply(coalesce((select jsonb_agg(x) from (select queue_id, -count(*) as total, -count(*) filter (where completed) as completed
          from removed group by queue_id) x), '[]'));
      else
        perform queue_counts_apply(coalesce((select jsonb_agg(x) from (select queue_id, sum(total) as total, sum(completed) as completed from (select queue_id, 1 as total, completed::int as completed from added
            union all
            select queue_id, -1, -completed::int from removed) changes
          group by queue_id having sum(total) <> 0 or sum(completed) <> 0) x), '[]'));
      end if;
      return null;
    end $$;
    create trigger queue_members_count_insert after insert on queue_members referencing new table as added
      for each statement execute function queue_members_counted();
    create trigger queue_members_count_delete after delete on queue_members referencing old table as removed
      for each statement execute function queue_members_counted();
    create trigger queue_members_count_update after update on queue_members
      referencing old table as removed new table as added
      for each statement execute function queue_members_counted();
  `.execute(db);

  // The counts of the queues that exist already, written as the owner with row security lifted for the moment.
  await sql`
    alter table power_dialer_queues no force row level security;
    alter table queue_members no force row level security;
    update power_dialer_queues q set
      total_count = (select count(*) from queue_members m where m.queue_id = q.id),
      completed_count = (select count(*) from queue_members m where m.queue_id = q.id and m.completed);
    alter table power_dialer_queues force row level security;
    alter table queue_members force row level security;
  `.execute(db);
}
