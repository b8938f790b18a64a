import { sql, type Kysely } from 'kysely';

/**
 * Webhook capture without a shared row (decision 035): queuing the endpoint's delivery job from the event's own
 * transaction upserted one job row per endpoint, so every transaction making an event for that endpoint waited for
 * the one before it to commit (at 100 events a second the API queued behind the job rows). The capture now writes
 * only its own delivery rows and a notice on the `webhook_deliveries` channel, sent at commit; each instance queues
 * the job when it hears it, and a sweep every minute queues any endpoint left with pending deliveries and no job
 * (a notice nobody heard).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function queue_webhook_events(events jsonb) returns void language plpgsql as $$
    declare
      touched uuid;
    begin
      for touched in
        with captured as (
          select (e ->> 'userId')::uuid as user_id, e ->> 'type' as type, e ->> 'orderKey' as order_key,
            coalesce((e ->> 'at')::timestamptz, now()) as event_at, e -> 'data' as data
          from jsonb_array_elements(events) e
        ), inserted as (
          insert into webhook_deliveries (id, endpoint_id, user_id, order_key, type, event_at, payload, due_at)
          select 'msg_' || replace(gen_random_uuid()::text, '-', ''), w.id, c.user_id, c.order_key, c.type, c.event_at,
            jsonb_build_object('type', c.type, 'timestamp', to_char(c.event_at at time zone 'UTC',
              'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'data', c.data), to_timestamp(0)
          from captured c join webhook_endpoints w on w.user_id = c.user_id and w.enabled and c.type = any(w.events)
          returning endpoint_id
        )
        select distinct endpoint_id from inserted
      loop
        -- The same notice twice in one transaction is delivered once.
        perform pg_notify('webhook_deliveries', touched::text);
      end loop;
    end $$;
  `.execute(db);
}
