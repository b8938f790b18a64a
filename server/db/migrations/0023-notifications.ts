import { sql, type Kysely } from 'kysely';

/**
 * Notifications (Settings → Notifications; docs/decisions/021-notifications.md):
 * - notification_settings: per user and kind, in the app and by e-mail; no row means every one is on.
 * - notifications: what a user was told, at most once per subject (a callback, a campaign's finish or failure, a
 *   sign-up), which is what makes several instances and re-runs safe: the unique key refuses the second.
 * - notify_user(): the one way a notification is made. It honours the user's settings, inserts once, and queues the
 *   e-mail (the task sends it only when the instance has a mail server and the user still wants it).
 * - Triggers make the notifications that follow from a change in the database: a campaign that finished or paused
 *   itself on an error, and a new account waiting for approval (to every admin). A callback is announced by a job
 *   queued, when the call-back is saved, to run at its time (server/modules/calls/callback-due.task.ts);
 *   the callbacks already saved, due from a day ago on, get theirs here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table notification_settings (user_id uuid primary key references auth_users (id) on delete cascade,
      callbacks_app boolean not null default true,
      callbacks_email boolean not null default true,
      campaigns_app boolean not null default true,
      campaigns_email boolean not null default true,
      signups_app boolean not null default true,
      signups_email boolean not null default true,
      updated_at timestamptz not null default now()
    );

    create table notifications (id uuid primary key default gen_random_uuid(),
      user_id uuid not null references auth_users (id) on delete cascade,
      kind text not null check (kind in ('callback-due', 'campaign-finished', 'campaign-failed', 'new-signup')),
      subject_key text not null check (length(subject_key) <= 200),
      title text not null check (length(title) <= 300),
      body text not null check (length(body) <= 2000),
      link text check (length(link) <= 500),
      created_at timestamptz not null default now(),
      read_at timestamptz,
      emailed_at timestamptz,
      unique (user_id, kind, subject_key)
    );
    create index notifications_user_idx on notifications (user_id, created_at desc, id desc);
    create index notifications_unread_idx on notifications (user_id) where read_at is null;
    create trigger notifications_notify after insert or update or delete on notifications
      for each row execute function notify_change('notifications', 'user_id');

    alter table notification_settings enable row level security;
    alter table notification_settings force row level security;
    create policy notification_settings_access on notification_settings
      using (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system')
      with check (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system');
    alter table notifications enable row level security;
    alter table notifications force row level security;
    -- A user reads and marks their own; a user's change may notify someone else only through notify_user (a
    -- campaign notifies its owner; a sign-up, made by the system, notifies the admins).
    create policy notifications_access on notifications
      using (user_id::text = current_setting('app.user_id', true)
        or current_setting('app.actor', true) in ('system', 'admin'))
      with check (user_id::text = current_setting('app.user_id', true)
        or current_setting('app.actor', true) in ('system', 'admin'));

    create function notify_user(target uuid, notification_kind text, subject text, title text, body text, link text
    ) returns uuid language plpgsql as $$
    declare
      settings notification_settings;
      made uuid;
      wants_email boolean;
    begin
      select * into settings from notification_settings where user_id = target;
      if notification_kind = 'callback-due' then
        if not coalesce(settings.callbacks_app, true) then return null; end if;
        wants_email := coalesce(settings.callbacks_email, true);
      elsif notification_kind in ('campaign-finished', 'campaign-failed') then
        if not coalesce(settings.campaigns_app, true) then return null; end if;
        wants_email := coalesce(settings.campaigns_email, true);
      else
        if not coalesce(settings.signups_app, true) then return null; end if;
        wants_email := coalesce(settings.signups_email, true);
      end if;
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

    create function notify_campaign_result() returns trigger language plpgsql as $$
    declare
      -- As JSON, so one function serves both tables (SMS campaigns have no campaign_type).
      kind text := case when new.status = 'sent' then 'campaign-finished' else 'campaign-failed' end;
      sequence boolean := to_jsonb(new) ->> 'campaign_type' = 'sequence';
      what text := case
        when tg_table_name = 'sms_campaigns' then 'SMS campaign'
        when sequence then 'Sequence'
        else 'Email campaign' end;
      path text := case
        when tg_table_name = 'sms_campaigns' then '/projects/sms/edit/'
        when sequence then '/projects/email-sequence/edit/'
        else '/projects/email/edit/' end;
    begin
      perform notify_user(new.user_id, kind, new.id || ':' || txid_current(),
        case when kind = 'campaign-finished' then what || ' finished: ' || new.name
          else what || ' paused on an error: ' || new.name end,
        case when kind = 'campaign-finished' then 'Every recipient has been handled.'
          else coalesce(new.pause_reason, 'The campaign stopped.') end,
        path || new.id);
      return null;
    end $$;
  `.execute(db);

  for (const table of ['email_campaigns', 'sms_campaigns']) {
    await sql`
      create trigger ${sql.id(`${table}_result`)} after update of status on ${sql.table(table)}
        for each row when (new.status is distinct from old.status
          and (new.status = 'sent' or (new.status = 'paused' and new.pause_reason is not null)))
        execute function notify_campaign_result();
    `.execute(db);
  }

  await sql`
    select graphile_worker.add_job(identifier => 'callback-due', payload => json_build_object('dispositionId', id, 'userId', user_id),
      run_at => callback_date, job_key => 'callback-due:' || id, max_attempts => 10, job_key_mode => 'replace')
    from call_dispositions
    where disposition in ('call-back', 'callback') and callback_date > now() - interval '1 day';
  `.execute(db);

  // A new account waiting for approval: every active admin hears of it.
  await sql`
    create function notify_new_signup() returns trigger language plpgsql as $$
    begin
      perform notify_user(a.id, 'new-signup', new.id::text, 'New sign-up waiting: ' || new.email,
        'A new account is waiting for your approval.', '/admin')
      from user_profiles a where a.role = 'admin' and a.deactivated_at is null and a.id <> new.id;
      return null;
    end $$;
    create trigger user_profiles_new_signup after insert on user_profiles
      for each row when (new.role = 'pending') execute function notify_new_signup();

    -- Once one admin has decided, the others' notices of that sign-up are settled too.
    create function settle_signup_notices() returns trigger language plpgsql as $$
    begin
      update notifications set read_at = now()
      where kind = 'new-signup' and subject_key = new.id::text and read_at is null;
      return null;
    end $$;
    create trigger user_profiles_signup_decided after update of role on user_profiles
      for each row when (old.role = 'pending' and new.role <> 'pending') execute function settle_signup_notices();
  `.execute(db);
}
