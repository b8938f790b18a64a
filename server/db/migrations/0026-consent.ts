import { sql, type Kysely } from 'kysely';

/**
 * The consent gate (docs/decisions/023-consent-gate.md):
 * - a contact's own time zone and US state (from the contact form or an imported column), which win over what their
 *   number says;
 * - consent_settings: per user, the user's own calling
 *   window (inside the law's, never wider), and whether a contact whose local time is unknown may be reached;
 * - an SMS campaign recipient outside their calling hours waits (not_before) instead of being skipped;
 * - a queue member outside their hours waits (wait_until, with the gate's words) out of the walk's index; one whose
 *   number cannot be placed is completed as skipped ('invalid-phone').
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table contacts add column time_zone text check (length(time_zone) <= 64),
      add column state text check (state ~ '^[A-Z]{2}$');

    create table consent_settings (user_id uuid primary key references auth_users (id) on delete cascade,
      window_from smallint check (window_from between 0 and 1440),
      window_to smallint check (window_to between 0 and 1440),
      unknown_local_time text not null default 'allow' check (unknown_local_time in ('allow', 'block')),
      updated_at timestamptz not null default now(),
      check ((window_from is null) = (window_to is null) and (window_from is null or window_from < window_to))
    );
    alter table consent_settings enable row level security;
    alter table consent_settings force row level security;
    create policy consent_settings_owner on consent_settings
      using (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system')
      with check (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system');

    alter table sms_campaign_recipients add column not_before timestamptz;

    -- A member the gate refuses for now (outside their hours) waits, out of the walk's way, until it may be called.
    alter table queue_members add column wait_until timestamptz,
      add column wait_reason text check (length(wait_reason) <= 300);
    drop index queue_members_open_idx;
    create index queue_members_open_idx on queue_members (queue_id, position) where not completed and wait_until is null;
    create index queue_members_waiting_idx on queue_members (queue_id, wait_until)
      where not completed and wait_until is not null;
    alter table queue_members drop constraint queue_members_skip_reason_check;
    alter table queue_members add constraint queue_members_skip_reason_check
      check (skip_reason in ('no-phone', 'do-not-call', 'invalid-phone'));
  `.execute(db);
}
