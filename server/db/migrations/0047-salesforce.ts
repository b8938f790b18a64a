import { sql, type Kysely } from 'kysely';

/**
 * Salesforce (decision 037): one connection per user made through OAuth 2.0 with PKCE, its access and refresh tokens
 * sealed like SMTP passwords, the org's instance and who it is connected as, the choice to log each call, the state
 * of the last import and the last failure in Salesforce's words; the sign-ins under way (the PKCE verifier kept
 * server-side, sealed, found by a hash of the state, ten minutes to come back); and the calls already logged there as
 * Tasks, one row per saved outcome, so a job run again never logs one twice. A trigger queues the logging job with
 * the outcome, in its transaction, only for a user whose connection logs calls.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table salesforce_connections (
      user_id uuid primary key references auth_users (id) on delete cascade,
      instance_url text not null check (length(instance_url) <= 300),
      access_token_sealed text not null check (length(access_token_sealed) <= 4000),
      refresh_token_sealed text not null check (length(refresh_token_sealed) <= 4000),
      organization_id text not null check (length(organization_id) <= 40),
      salesforce_user_id text not null check (length(salesforce_user_id) <= 40),
      username text not null check (length(username) <= 200),
      display_name text check (length(display_name) <= 200),
      log_calls boolean not null default true,
      connected_at timestamptz not null default now(),
      import_status text check (import_status in ('running', 'done', 'failed')),
      import_at timestamptz,
      import_summary text check (length(import_summary) <= 500),
      calls_logged integer not null default 0,
      last_logged_at timestamptz,
      last_error text check (length(last_error) <= 500),
      last_error_at timestamptz
    );
    alter table salesforce_connections enable row level security;
    alter table salesforce_connections force row level security;
    create policy salesforce_connections_owner on salesforce_connections
      using (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system')
      with check (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system');

    create table salesforce_sign_ins (
      state_hash text primary key check (length(state_hash) <= 100),
      user_id uuid not null references auth_users (id) on delete cascade,
      verifier_sealed text not null check (length(verifier_sealed) <= 1000),
      log_calls boolean not null,
      expires_at timestamptz not null
    );
    create index salesforce_sign_ins_user on salesforce_sign_ins (user_id);
    alter table salesforce_sign_ins enable row level security;
    alter table salesforce_sign_ins force row level security;
    create policy salesforce_sign_ins_owner on salesforce_sign_ins
      using (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system')
      with check (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system');

    create table salesforce_logged_calls (
      disposition_id uuid primary key references call_dispositions (id) on delete cascade,
      user_id uuid not null references auth_users (id) on delete cascade,
      task_id text not null check (length(task_id) <= 40),
      who_id text not null check (length(who_id) <= 40),
      logged_at timestamptz not null default now()
    );
    alter table salesforce_logged_calls enable row level security;
    alter table salesforce_logged_calls force row level security;
    create policy salesforce_logged_calls_owner on salesforce_logged_calls
      using (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system')
      with check (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system');

    create function salesforce_log_call_on_disposition() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from salesforce_connections s where s.user_id = new.user_id and s.log_calls) then
        perform graphile_worker.add_job(identifier => 'salesforce-log-call',
          payload => json_build_object('dispositionId', new.id, 'userId', new.user_id), max_attempts => 10);
      end if;
      return null;
    end $$;
    create trigger call_dispositions_salesforce after insert on call_dispositions
      for each row execute function salesforce_log_call_on_disposition();
  `.execute(db);
}
