import { sql, type Kysely } from 'kysely';

/**
 * Webhook capture without a notice (decision 035): a transaction that sends a NOTIFY takes PostgreSQL's one
 * database-wide notify lock at commit and keeps it while its commit is flushed to disk, so every contact save making
 * an event waited for the one before it to reach the disk; at 100 events a second the saves queued behind each other
 * and held the pool's connections (every other request then waited for a connection). The capture now only writes
 * its delivery rows; each instance looks for endpoints with pending deliveries and no job a few times a second.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function queue_webhook_events(events jsonb) returns void language plpgsql as $$
    begin
      with captured as (
        select (e ->> 'userId')::uuid as user_id, e ->> 'type' as type, e ->> 'orderKey' as order_key,
          coalesce((e ->> 'at')::timestamptz, now()) as event_at, e -> 'data' as data
        from jsonb_array_elements(events) e
      )
      insert into webhook_deliveries (id, endpoint_id, user_id, order_key, type, event_at, payload, due_at)
      select 'msg_' || replace(gen_random_uuid()::text, '-', ''), w.id, c.user_id, c.order_key, c.type, c.event_at,
        jsonb_build_object('type', c.type, 'timestamp', to_char(c.event_at at time zone 'UTC',
          'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'data', c.data), to_timestamp(0)
      from captured c join webhook_endpoints w on w.user_id = c.user_id and w.enabled and c.type = any(w.events);
    end $$;
  `.execute(db);
}
