import { sql, type Kysely } from 'kysely';

/**
 * Hardening (docs/decisions/011-hardening.md):
 *  - auth_attempts replaces sign_in_attempts: every throttled authentication step (sign-in, sign-up, password-reset
 *    mail, change-password) reserves its attempt before it runs, keyed by account, client and IP, so parallel
 *    guesses are counted before any is checked; known_devices lets an owner's own browser in during an attack.
 *  - server_instances: each running server, whose liveness is a session advisory lock its own dedicated connection
 *    holds; imports and simulated calls record the instance that runs them, so work whose instance died is found.
 *  - contact imports keep their counts per saved batch, so an import cut short reports what it really saved.
 *  - a caller ID another user has added can be found when a number is added (caller_ids_claim_check).
 *  - app_role_credentials: the application role's password, recorded once in the database (readable by the owner
 *    only), so every instance uses the same one whatever its own configuration or start order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table sign_in_attempts;

    create table auth_attempts (id bigserial primary key,
      kind text not null check (kind in ('sign-in', 'sign-up', 'password-reset', 'change-password')),
      account text not null check (length(account) <= 320),
      -- Who tried: 'device:<id>' for a browser that has signed in to this account before, else 'ip:<address>'.
      client text not null check (length(client) <= 200),
      ip text not null check (length(ip) <= 100),
      known_device boolean not null default false,
      outcome text not null default 'pending' check (outcome in ('pending', 'failed', 'succeeded')),
      attempted_at timestamptz not null
    );
    create index auth_attempts_account_idx on auth_attempts (kind, account, attempted_at) where outcome <> 'succeeded';
    create index auth_attempts_ip_idx on auth_attempts (kind, ip, attempted_at);
    create index auth_attempts_age_idx on auth_attempts (attempted_at);

    create table known_devices (account text not null check (length(account) <= 320),
      device_id text not null check (device_id ~ '^[A-Za-z0-9_-]{16,64}$'),
      last_seen_at timestamptz not null,
      primary key (account, device_id)
    );

    create table server_instances (id uuid primary key,
      hostname text not null check (length(hostname) <= 255),
      pid integer not null,
      started_at timestamptz not null,
      last_seen_at timestamptz not null
    );

    alter table contact_imports add column instance_id uuid;
    create index contact_imports_running_idx on contact_imports (created_at) where status = 'running';
    create policy contact_imports_system on contact_imports using (current_setting('app.actor', true) = 'system');

    alter table calls add column instance_id uuid;

    -- A caller ID is one person's: adding a number checks, under a lock on the number, whether another user has it
    -- (the check alone may look across users, for the length of that statement).
    create policy caller_ids_claim_check on caller_ids for select
      using (current_setting('app.caller_id_check', true) = 'on');
    create index caller_ids_number_idx on caller_ids (number_e164);

    create table app_role_credentials (role text primary key,
      password text not null,
      created_at timestamptz not null default now()
    );
  `.execute(db);
}
