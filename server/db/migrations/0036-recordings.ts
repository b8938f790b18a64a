import { sql, type Kysely } from 'kysely';

/**
 * Voicemail, call recording and stored recordings (decisions 029, 030):
 * - recordings: an audio file in the file store (its key) with what it is (a caller's voicemail on an incoming call,
 *   a recorded call, a user's recorded greeting), its owner, its call and contact. A voicemail or call recording is
 *   deleted with its contact (calls outlive the contact; what the contact said does not). One of each per call.
 * - recording_settings: whether the user's calls are recorded (off by default) and how many days recordings are
 *   kept (90 by default; a daily job deletes older ones). calls.recorded and recording_disclosure say, per call,
 *   whether it was recorded and what the called person heard first.
 * - file_deletions: the keys of deleted recordings, filled by a trigger in the deleting transaction and emptied by a
 *   job that deletes the files, so a file outlives its row only until the job runs, never forever.
 * - voicemail_greetings: what a caller hears before leaving a message (written, or the recorded one).
 * - notification_kinds: which Settings → Notifications row governs each kind, so a new kind is a row here, not
 *   another copy of notify_user. 'voicemail' joins the missed-call row.
 * Changes to recordings are announced on the 'calls' topic: the call logs show voicemails.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table recordings (id uuid primary key default gen_random_uuid(),
      user_id uuid not null references auth_users (id) on delete cascade,
      kind text not null check (kind in ('voicemail', 'greeting', 'call')),
      call_id uuid references calls (id) on delete cascade,
      contact_id uuid references contacts (id) on delete cascade,
      storage_key text not null unique check (length(storage_key) <= 300),
      content_type text not null check (length(content_type) <= 100),
      size_bytes bigint not null check (size_bytes >= 0),
      duration_seconds numeric(8, 2) not null check (duration_seconds >= 0),
      provider_recording_id text check (length(provider_recording_id) <= 100),
      created_at timestamptz not null default now(),
      check ((kind in ('voicemail', 'call')) = (call_id is not null))
    );
    -- One voicemail per call, one recording per call.
    create unique index recordings_call_idx on recordings (call_id, kind) where call_id is not null;
    create index recordings_retention_idx on recordings (created_at) where kind <> 'greeting';
    create index recordings_user_idx on recordings (user_id, kind, created_at desc);
    create index recordings_contact_idx on recordings (contact_id) where contact_id is not null;
    alter table recordings enable row level security;
    alter table recordings force row level security;
    create policy recordings_owner on recordings
      using (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system')
      with check (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system');
    -- One change event per user per statement, not per row: the retention job deletes thousands at once.
    create function notify_recordings_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify('app_changes', json_build_object('topic', 'calls', 'op', tg_op, 'id', 'recordings',
        'userId', u.user_id, 'role', null, 'deactivated', false)::text)
      from (select distinct user_id from changed) u;
      return null;
    end $$;
    create trigger recordings_notify_insert after insert on recordings referencing new table as changed
      for each statement execute function notify_recordings_change();
    create trigger recordings_notify_delete after delete on recordings referencing old table as changed
      for each statement execute function notify_recordings_change();

    create table file_deletions (storage_key text primary key, queued_at timestamptz not null default now());
    alter table file_deletions enable row level security;
    alter table file_deletions force row level security;
    -- Whoever deletes a recording queues its file; a user sees the entries of their own folder (a file they are
    -- storing is held here until its recording is saved); the system's job reads and clears them all.
    create policy file_deletions_queue on file_deletions for insert with check (true);
    create policy file_deletions_access on file_deletions
      using (current_setting('app.actor', true) = 'system'
        or storage_key like 'users/' || current_setting('app.user_id', true) || '/%');
    -- Once per statement: a deletion of 50,000 recordings queues 50,000 keys and one job.
    create function queue_file_deletion() returns trigger language plpgsql as $$
    begin
      insert into file_deletions (storage_key) select storage_key from gone on conflict do nothing;
      if found then
        perform graphile_worker.add_job(identifier => 'file-deletions', payload => '{}'::json,
          job_key => 'file-deletions', job_key_mode => 'preserve_run_at', max_attempts => 25);
      end if;
      return null;
    end $$;
    create trigger recordings_file_deletion after delete on recordings referencing old table as gone
      for each statement execute function queue_file_deletion();

    create table recording_settings (user_id uuid primary key references auth_users (id) on delete cascade,
      record_calls boolean not null default false,
      retention_days int not null default 90 check (retention_days between 1 and 3650),
      updated_at timestamptz not null default now()
    );
    alter table recording_settings enable row level security;
    alter table recording_settings force row level security;
    create policy recording_settings_owner on recording_settings
      using (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system')
      with check (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system');
    -- Whether a call is recorded, and the disclosure the called person heard first (null: none was needed).
    alter table calls
      add column recorded boolean not null default false,
      add column recording_disclosure text check (length(recording_disclosure) <= 300);

    create table voicemail_greetings (user_id uuid primary key references auth_users (id) on delete cascade,
      greeting_text text check (length(greeting_text) <= 500),
      recording_id uuid references recordings (id) on delete set null,
      updated_at timestamptz not null default now()
    );
    create index voicemail_greetings_recording_idx on voicemail_greetings (recording_id) where recording_id is not null;
    alter table voicemail_greetings enable row level security;
    alter table voicemail_greetings force row level security;
    create policy voicemail_greetings_owner on voicemail_greetings
      using (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system')
      with check (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system');

    create table notification_kinds (kind text primary key, setting text not null
      check (setting in ('callbacks', 'campaigns', 'signups', 'missed_calls')));
    insert into notification_kinds (kind, setting) values
      ('callback-due', 'callbacks'), ('campaign-finished', 'campaigns'), ('campaign-failed', 'campaigns'),
      ('new-signup', 'signups'), ('missed-call', 'missed_calls'), ('voicemail', 'missed_calls');
    alter table notifications drop constraint notifications_kind_check;
    alter table notifications add constraint notifications_kind_fk foreign key (kind) references notification_kinds (kind);

    create or replace function notify_user(target uuid, notification_kind text, subject text, title text, body text,
      link text
    ) returns uuid language plpgsql as $$
    declare
      settings jsonb;
      setting_name text;
      made uuid;
      wants_email boolean;
    begin
      select setting into setting_name from notification_kinds where kind = notification_kind;
      if setting_name is null then raise exception 'unknown notification kind %', notification_kind; end if;
      select to_jsonb(s) into settings from notification_settings s where user_id = target;
      if not coalesce((settings ->> (setting_name || '_app'))::boolean, true) then return null; end if;
      wants_email := coalesce((settings ->> (setting_name || '_email'))::boolean, true);
      insert into notifications (user_id, kind, subject_key, title, body, link)
      values (target, notification_kind, subject, left(title, 300), left(body, 2000), link)
      on conflict do nothing
      returning id into made;
      if made is not null and wants_email then
        perform graphile_worker.add_job(identifier => 'notification-email', payload => json_build_object('notificationId', made),
          job_key => 'notification-email:' || made, max_attempts => 5, job_key_mode => 'replace');
      end if;
      return made;
    end $$;
  `.execute(db);
}
