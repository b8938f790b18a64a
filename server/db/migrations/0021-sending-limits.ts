import { sql, type Kysely } from 'kysely';

/**
 * Per-user sending limits ("paced (a per-user rate a user can set)"; docs/decisions/017-email-campaigns.md):
 * at most this many campaign e-mails, and text messages, a minute across all of a user's campaigns. Null: each
 * campaign's own pace alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sending_limits (user_id uuid primary key references auth_users (id) on delete cascade,
      email_per_minute integer check (email_per_minute between 1 and 3000),
      sms_per_minute integer check (sms_per_minute between 1 and 3000),
      -- When the user's campaigns last handed over an e-mail or a text: the next may go a limit's spacing later.
      email_last_at timestamptz,
      sms_last_at timestamptz,
      updated_at timestamptz not null default now()
    );
    alter table sending_limits enable row level security;
    alter table sending_limits force row level security;
    create policy sending_limits_owner on sending_limits
      using (user_id::text = current_setting('app.user_id', true))
      with check (user_id::text = current_setting('app.user_id', true));
  `.execute(db);
}
