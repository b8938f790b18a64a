import { sql, type Kysely } from 'kysely';

/**
 * Accounts: better-auth's tables (snake_case), user profiles with roles, sign-in attempts for rate limiting,
 * the system outbox, and the change-notification trigger used by realtime.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create extension if not exists pg_trgm;

    create table auth_users (
      id uuid primary key,
      name text not null default '',
      email text not null,
      email_verified boolean not null default false,
      image text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index auth_users_email_key on auth_users (lower(email));

    create table auth_sessions (
      id uuid primary key,
      token text not null unique,
      user_id uuid not null references auth_users (id) on delete cascade,
      expires_at timestamptz not null,
      ip_address text,
      user_agent text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index auth_sessions_user_id_idx on auth_sessions (user_id);

    create table auth_accounts (
      id uuid primary key,
      account_id text not null,
      provider_id text not null,
      user_id uuid not null references auth_users (id) on delete cascade,
      access_token text,
      refresh_token text,
      id_token text,
      access_token_expires_at timestamptz,
      refresh_token_expires_at timestamptz,
      scope text,
      password text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index auth_accounts_user_id_idx on auth_accounts (user_id);

    create table auth_verifications (
      id uuid primary key,
      identifier text not null,
      value text not null,
      expires_at timestamptz not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index auth_verifications_identifier_idx on auth_verifications (identifier);

    create table user_profiles (
      id uuid primary key references auth_users (id) on delete cascade,
      email text not null,
      first_name text not null default '' check (length(first_name) <= 100),
      last_name text not null default '' check (length(last_name) <= 100),
      role text not null check (role in ('pending', 'user', 'admin', 'denied')),
      deactivated_at timestamptz,
      reviewed_at timestamptz,
      reviewed_by uuid references auth_users (id) on delete set null,
      created_at timestamptz not null default now()
    );
    create index user_profiles_role_idx on user_profiles (role);
    create index user_profiles_created_at_idx on user_profiles (created_at desc);
    create index user_profiles_search_idx on user_profiles
      using gin ((email || ' ' || first_name || ' ' || last_name) gin_trgm_ops);

    create table sign_in_attempts (
      id bigserial primary key,
      ip text not null,
      email text not null,
      succeeded boolean not null,
      attempted_at timestamptz not null default now()
    );
    create index sign_in_attempts_email_idx on sign_in_attempts (email, attempted_at) where not succeeded;
    create index sign_in_attempts_ip_idx on sign_in_attempts (ip, attempted_at) where not succeeded;

    create table outbox_messages (
      id uuid primary key default gen_random_uuid(),
      user_id uuid references auth_users (id) on delete cascade,
      kind text not null,
      from_address text not null,
      to_address text not null,
      subject text not null,
      text_body text not null,
      created_at timestamptz not null default now()
    );
    create index outbox_messages_user_idx on outbox_messages (user_id, created_at desc);

    -- Realtime: every change to a watched table is announced on one channel; the server relays it to the
    -- browsers allowed to see it. TG_ARGV[0] is the topic, TG_ARGV[1] the column holding the owner's id.
    create function notify_change() returns trigger language plpgsql as $$
    declare
      rec jsonb := to_jsonb(coalesce(new, old));
    begin
      perform pg_notify('app_changes', json_build_object(
        'topic', tg_argv[0],
        'op', tg_op,
        'id', rec ->> 'id',
        'userId', rec ->> tg_argv[1],
        'role', rec ->> 'role',
        'deactivated', (rec ->> 'deactivated_at') is not null
      )::text);
      return null;
    end $$;

    create trigger user_profiles_notify after insert or update or delete on user_profiles
      for each row execute function notify_change('profiles', 'id');

    -- Defence in depth: a person's profile is visible to that person, to admins, and to the system actor
    -- (sign-up, sign-in, session checks). The app role is neither superuser nor owner, so this holds.
    alter table user_profiles enable row level security;
    alter table user_profiles force row level security;
    create policy user_profiles_access on user_profiles
      using (
        id::text = current_setting('app.user_id', true)
        or current_setting('app.actor', true) in ('admin', 'system')
      );

    alter table outbox_messages enable row level security;
    alter table outbox_messages force row level security;
    create policy outbox_messages_access on outbox_messages
      using (
        user_id::text = current_setting('app.user_id', true)
        or current_setting('app.actor', true) in ('admin', 'system')
      );
  `.execute(db);
}
