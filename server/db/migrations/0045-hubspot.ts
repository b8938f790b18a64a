import { sql, type Kysely } from 'kysely';

/**
 * HubSpot (decision 036): one connection per user, its private app's access token sealed like SMTP passwords, the
 * account it reaches, the choices (log each call, create the HubSpot contact when none matches), the state of the
 * last import and the last failure in HubSpot's words; and the calls already logged there, one row per saved
 * outcome, so a job run again never logs one twice. A trigger queues the logging job with the outcome, in its
 * transaction, only for a user whose connection logs calls. Imports record their source in contact_imports.format.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table hubspot_connections (
      user_id uuid primary key references auth_users (id) on delete cascade,
      token_sealed text not null check (length(token_sealed) <= 2000),
      portal_id text not null check (length(portal_id) <= 40),
      account_domain text check (length(account_domain) <= 200),
      log_calls boolean not null default true,
      create_missing boolean not null default false,
      connected_at timestamptz not null default now(),
      import_status text check (import_status in ('running', 'done', 'failed')),
      import_at timestamptz,
      import_summary text check (length(import_summary) <= 500),
      calls_logged integer not null default 0,
      last_logged_at timestamptz,
      last_error text check (length(last_error) <= 500),
      last_error_at timestamptz
    );
    alter table hubspot_connections enable row level security;
    alter table hubspot_connections force row level security;
    create policy hubspot_connections_owner on hubspot_connections
      using (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system')
      with check (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system');

    create table hubspot_logged_calls (
      disposition_id uuid primary key references call_dispositions (id) on delete cascade,
      user_id uuid not null references auth_users (id) on delete cascade,
      hubspot_call_id text not null check (length(hubspot_call_id) <= 40),
      hubspot_contact_id text not null check (length(hubspot_contact_id) <= 40),
      logged_at timestamptz not null default now()
    );
    alter table hubspot_logged_calls enable row level security;
    alter table hubspot_logged_calls force row level security;
    create policy hubspot_logged_calls_owner on hubspot_logged_calls
      using (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system')
      with check (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system');

    alter table contact_imports drop constraint contact_imports_format_check;
    alter table contact_imports add constraint contact_imports_format_check
      check (format in ('csv', 'xlsx', 'vcard', 'hubspot', 'salesforce'));

    create function hubspot_log_call_on_disposition() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from hubspot_connections h where h.user_id = new.user_id and h.log_calls) then
        perform graphile_worker.add_job(identifier => 'hubspot-log-call',
          payload => json_build_object('dispositionId', new.id, 'userId', new.user_id), max_attempts => 10);
      end if;
      return null;
    end $$;
    create trigger call_dispositions_hubspot after insert on call_dispositions
      for each row execute function hubspot_log_call_on_disposition();
  `.execute(db);
}
