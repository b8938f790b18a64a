import { sql, type Kysely } from 'kysely';

/**
 * The callbacks calendar feed (decision 032): one secret address per user that a calendar app subscribes to. The
 * token is found by its SHA-256 (the feed request has no session) and kept sealed for showing it again to its owner
 * (like SMTP passwords); regenerating replaces both, so the old address stops working at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table calendar_feeds (
      user_id uuid primary key references auth_users (id) on delete cascade,
      token_hash text not null unique check (length(token_hash) = 64),
      token_sealed text not null check (length(token_sealed) <= 500),
      created_at timestamptz not null default now(),
      last_fetched_at timestamptz
    );
    alter table calendar_feeds enable row level security;
    alter table calendar_feeds force row level security;
    create policy calendar_feeds_owner on calendar_feeds
      using (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system')
      with check (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system');
  `.execute(db);
}
