import { sql, type Kysely } from 'kysely';

/**
 * Inbound calls (decision 028): a call can come in to one of a user's caller IDs. It is a row of `calls` like any
 * other, with its direction: from_number is the caller, to_number our number. Finding who takes it reads the caller
 * IDs by number (the system actor, as the provider's webhook has no session) and the last call from that number to
 * the caller. A missed call is a notification of its own kind, on or off in the app and by e-mail.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table calls add column direction text not null default 'outbound'
      check (direction in ('outbound', 'inbound'));
    -- Call Reports read an incoming call nobody answered as "missed" (Outcome, filter, export), as 0033 did for
    -- abandoned calls.
    alter table calls drop column report_text;
    alter table calls add column report_text text generated always as (call_report_text(contact_id, notes,
      coalesce(disposition, case
        when abandoned_at is not null then 'abandoned'
        when direction = 'inbound' and answered_at is null and status in ('no-answer', 'busy', 'failed', 'canceled')
          then 'missed'
        else status end))) stored;
    create index calls_report_search_idx on calls using gin (user_id, report_text gin_trgm_ops);
    create index calls_from_to_idx on calls (from_number, to_number, started_at desc);
    create index calls_inbound_ringing_idx on calls (user_id)
      where direction = 'inbound' and status in ('queued', 'ringing');
    create policy caller_ids_system on caller_ids for select using (current_setting('app.actor', true) = 'system');

    alter table notification_settings
      add column missed_calls_app boolean not null default true,
      add column missed_calls_email boolean not null default true;
    alter table notifications drop constraint notifications_kind_check;
    alter table notifications add constraint notifications_kind_check
      check (kind in ('callback-due', 'campaign-finished', 'campaign-failed', 'new-signup', 'missed-call'));

    create or replace function notify_user(target uuid, notification_kind text, subject text, title text, body text,
      link text
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
      elsif notification_kind = 'missed-call' then
        if not coalesce(settings.missed_calls_app, true) then return null; end if;
        wants_email := coalesce(settings.missed_calls_email, true);
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
  `.execute(db);
}
