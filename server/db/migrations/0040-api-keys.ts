import { sql, type Kysely } from 'kysely';

/**
 * Personal API keys (decision 033). A key is found by its SHA-256 (it is 32 random bytes: a slow hash adds nothing);
 * only its last four characters are kept readable. The request window is counted on the row itself, so every
 * instance on the database shares one limit per key, and the count and the last use are one update.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table api_keys (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references auth_users (id) on delete cascade,
      name text not null check (length(name) between 1 and 100),
      scope text not null check (scope in ('read', 'read-write')),
      token_hash text not null unique check (length(token_hash) = 64),
      hint text not null check (length(hint) = 4),
      created_at timestamptz not null default now(),
      last_used_at timestamptz,
      window_started_at timestamptz not null default now(),
      window_count integer not null default 0
    );
    create index api_keys_user on api_keys (user_id, created_at);
    alter table api_keys enable row level security;
    alter table api_keys force row level security;
    create policy api_keys_owner on api_keys
      using (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system')
      with check (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system');
  `.execute(db);
}
