import { sql, type Kysely } from 'kysely';

/**
 * Voicemail drop (decision 031): a rep's prerecorded voicemail messages, each a recording of kind 'drop' with the
 * name the rep gave it, played to an answering machine in place of the rep. The call keeps the message's name and
 * when it was left (the message may be deleted later; the call's history may not change). Dropped messages are
 * kept until their owner deletes them: the retention job reads voicemails and call recordings only. A prerecorded
 * message is a channel of its own in the consent record ('prerecorded').
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table recordings drop constraint recordings_kind_check;
    alter table recordings add constraint recordings_kind_check
      check (kind in ('voicemail', 'greeting', 'call', 'drop'));

    create table voicemail_drops (id uuid primary key default gen_random_uuid(),
      user_id uuid not null references auth_users (id) on delete cascade,
      recording_id uuid not null unique references recordings (id) on delete cascade,
      name text not null check (length(name) between 1 and 60),
      created_at timestamptz not null default now()
    );
    create index voicemail_drops_user_idx on voicemail_drops (user_id, created_at);
    alter table voicemail_drops enable row level security;
    alter table voicemail_drops force row level security;
    create policy voicemail_drops_owner on voicemail_drops
      using (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system')
      with check (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system');

    alter table calls
      add column voicemail_drop_name text check (length(voicemail_drop_name) <= 60),
      add column voicemail_dropped_at timestamptz;

    alter table consent_decisions drop constraint consent_decisions_channel_check;
    alter table consent_decisions add constraint consent_decisions_channel_check
      check (channel in ('call', 'text', 'campaign-email', 'email', 'prerecorded'));
  `.execute(db);
}
