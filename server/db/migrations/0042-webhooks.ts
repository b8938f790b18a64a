import { sql, type Kysely } from 'kysely';

/**
 * Outgoing webhooks (decision 035): a user's endpoints, and an outbox of deliveries written by the transaction that
 * made the event, so an event is delivered exactly when it was committed. Triggers capture contacts created, changed
 * (a field the user sees) or deleted (statement-level, so an import is one insert … select), dispositions saved and
 * calls that ended, one delivery per enabled endpoint subscribed to the event, and queue one delivery job per
 * endpoint (one job key per endpoint: a burst of events is one job). Nothing is written for a user without an
 * endpoint for the event.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table webhook_endpoints (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references auth_users (id) on delete cascade,
      url text not null check (length(url) between 1 and 2000),
      description text not null default '' check (length(description) <= 200),
      events text[] not null,
      secret_sealed text not null check (length(secret_sealed) <= 500),
      enabled boolean not null default true,
      disabled_reason text check (length(disabled_reason) <= 500),
      failing_since timestamptz,
      created_at timestamptz not null default now()
    );
    create index webhook_endpoints_user on webhook_endpoints (user_id, created_at);
    create index webhook_endpoints_events on webhook_endpoints using gin (events) where enabled;

    create table webhook_deliveries (
      id text primary key check (length(id) <= 100),
      endpoint_id uuid not null references webhook_endpoints (id) on delete cascade,
      user_id uuid not null references auth_users (id) on delete cascade,
      sequence bigserial not null,
      order_key text,
      type text not null,
      event_at timestamptz not null,
      payload jsonb not null,
      status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
      attempts integer not null default 0,
      due_at timestamptz not null,
      last_status integer,
      last_error text check (length(last_error) <= 500),
      last_attempt_at timestamptz,
      delivered_at timestamptz
    );
    create index webhook_deliveries_pending on webhook_deliveries (endpoint_id, sequence) where status = 'pending';
    create index webhook_deliveries_log on webhook_deliveries (endpoint_id, sequence desc);

    alter table webhook_endpoints enable row level security;
    alter table webhook_endpoints force row level security;
    create policy webhook_endpoints_owner on webhook_endpoints
      using (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system')
      with check (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system');
    alter table webhook_deliveries enable row level security;
    alter table webhook_deliveries force row level security;
    create policy webhook_deliveries_owner on webhook_deliveries
      using (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system')
      with check (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system');

    -- One delivery per subscribed enabled endpoint for each captured event, due at once (the epoch: the server's
    -- clock, which schedules retries, is not the database's), then one job per endpoint touched.
    create function queue_webhook_events(events jsonb) returns void language plpgsql as $$
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
        perform graphile_worker.add_job(identifier => 'webhook-deliver',
          payload => json_build_object('endpointId', touched), job_key => 'webhook-deliver:' || touched,
          max_attempts => 25, job_key_mode => 'replace');
      end loop;
    end $$;

    create function webhook_contact_json(c contacts) returns jsonb language sql immutable as $$
      select jsonb_build_object('id', c.id, 'firstName', c.first_name, 'lastName', c.last_name, 'email', c.email,
        'phone', c.phone, 'company', c.company, 'website', c.website, 'title', c.title, 'notes', c.notes,
        'status', c.status, 'tags', to_jsonb(c.tags), 'createdAt', c.created_at, 'updatedAt', c.updated_at)
    $$;

    create function webhooks_on_contacts() returns trigger language plpgsql as $$
    begin
      if not exists (select 1 from webhook_endpoints where enabled) then return null; end if;
      if tg_op = 'INSERT' then
        perform queue_webhook_events(coalesce((select jsonb_agg(jsonb_build_object('userId', n.user_id,
          'type', 'contact.created', 'orderKey', n.id, 'data', webhook_contact_json(n)) order by n.created_at, n.id)
          from new_rows n where exists (select 1 from webhook_endpoints w where w.user_id = n.user_id and w.enabled
            and 'contact.created' = any(w.events))), '[]'));
      elsif tg_op = 'UPDATE' then
        perform queue_webhook_events(coalesce((select jsonb_agg(jsonb_build_object('userId', n.user_id,
          'type', 'contact.updated', 'orderKey', n.id, 'data', webhook_contact_json(n)) order by n.id)
          from new_rows n join old_rows o on o.id = n.id
          where (o.first_name, o.last_name, o.email, o.phone, o.company, o.website, o.title, o.notes, o.status, o.tags)
            is distinct from (n.first_name, n.last_name, n.email, n.phone, n.company, n.website, n.title, n.notes, n.status, n.tags)
            and exists (select 1 from webhook_endpoints w where w.user_id = n.user_id and w.enabled
              and 'contact.updated' = any(w.events))), '[]'));
      else
        perform queue_webhook_events(coalesce((select jsonb_agg(jsonb_build_object('userId', o.user_id,
          'type', 'contact.deleted', 'orderKey', o.id, 'data', webhook_contact_json(o)) order by o.id)
          from old_rows o where exists (select 1 from webhook_endpoints w where w.user_id = o.user_id and w.enabled
            and 'contact.deleted' = any(w.events))), '[]'));
      end if;
      return null;
    end $$;
    create trigger contacts_webhooks_insert after insert on contacts referencing new table as new_rows
      for each statement execute function webhooks_on_contacts();
    create trigger contacts_webhooks_update after update on contacts
      referencing old table as old_rows new table as new_rows
      for each statement execute function webhooks_on_contacts();
    create trigger contacts_webhooks_delete after delete on contacts referencing old table as old_rows
      for each statement execute function webhooks_on_contacts();

    create function webhooks_on_disposition() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from webhook_endpoints w where w.user_id = new.user_id and w.enabled
          and 'disposition.saved' = any(w.events)) then
        perform queue_webhook_events(jsonb_build_array(jsonb_build_object('userId', new.user_id,
          'type', 'disposition.saved', 'orderKey', new.contact_id, 'data', jsonb_build_object('id', new.id,
          'contactId', new.contact_id, 'callId', new.call_id, 'disposition', new.disposition, 'notes', new.notes,
          'qualified', new.is_qualified, 'callbackDate', new.callback_date, 'queueId', new.queue_id,
          'calledAt', new.called_at))));
      end if;
      return null;
    end $$;
    create trigger call_dispositions_webhooks after insert on call_dispositions
      for each row execute function webhooks_on_disposition();

    create function webhooks_on_call_end() returns trigger language plpgsql as $$
    begin
      if new.status in ('completed', 'busy', 'no-answer', 'failed', 'canceled')
          and old.status not in ('completed', 'busy', 'no-answer', 'failed', 'canceled')
          and exists (select 1 from webhook_endpoints w where w.user_id = new.user_id and w.enabled
            and 'call.ended' = any(w.events)) then
        perform queue_webhook_events(jsonb_build_array(jsonb_build_object('userId', new.user_id,
          'type', 'call.ended', 'orderKey', new.contact_id, 'data', jsonb_build_object('id', new.id,
          'contactId', new.contact_id, 'direction', new.direction, 'from', new.from_number, 'to', new.to_number,
          'status', new.status, 'startedAt', new.started_at, 'answeredAt', new.answered_at, 'endedAt', new.ended_at,
          'durationSeconds', new.duration_seconds))));
      end if;
      return null;
    end $$;
    create trigger calls_webhooks after update of status on calls
      for each row execute function webhooks_on_call_end();
  `.execute(db);
}
