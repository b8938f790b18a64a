import { sql, type Kysely } from 'kysely';

/**
 * The rest of the outgoing webhook events (decision 035), captured like the first five by triggers in the change's
 * own transaction:
 * - sms.received: a message that came in (kept now with its text), for the user it was simulated for, or else the
 *   owners of the number it was sent to;
 * - opt-out.recorded: a number put on the do-not-call list or an express consent withdrawn (the consent record's
 *   "opted out" entries), an address unsubscribed from a campaign e-mail, a number that replied STOP (a real STOP
 *   stops every number of this instance, so it goes to every user who has that number among their contacts);
 * - campaign.finished: an e-mail campaign, sequence or SMS campaign that has handled every recipient, with its
 *   counts;
 * - voicemail.received: a caller's voicemail stored, with the path of its audio (fetched with a session or key).
 * And a notification kind for an endpoint turned off after 3 days of failures, under a new setting, Integrations.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table sms_inbound_messages add column body text check (length(body) <= 1600);

    alter table notification_settings
      add column integrations_app boolean not null default true,
      add column integrations_email boolean not null default true;
    alter table notification_kinds drop constraint notification_kinds_setting_check;
    alter table notification_kinds add constraint notification_kinds_setting_check
      check (setting in ('callbacks', 'campaigns', 'signups', 'missed_calls', 'integrations'));
    insert into notification_kinds (kind, setting) values ('webhook-disabled', 'integrations');

    create function webhook_wanted(target uuid, event text) returns boolean language sql stable as $$
      select exists (select 1 from webhook_endpoints w where w.user_id = target and w.enabled and event = any(w.events))
    $$;

    -- The contact of one user with this number (their oldest), read as that user: contacts are visible to their owner
    -- only, and these triggers run for the provider's requests, as the system.
    create function webhook_contact_of_number(target uuid, number text) returns uuid language plpgsql as $$
    declare
      acting text := current_setting('app.user_id', true);
      found uuid;
    begin
      perform set_config('app.user_id', target::text, true);
      select c.id into found from contacts c where c.user_id = target and c.phone_e164 = number
        order by c.created_at, c.id limit 1;
      perform set_config('app.user_id', coalesce(acting, ''), true);
      return found;
    end $$;

    create function webhooks_on_sms_inbound() returns trigger language plpgsql as $$
    begin
      if not exists (select 1 from webhook_endpoints where enabled) then return null; end if;
      perform queue_webhook_events(coalesce((
        select jsonb_agg(jsonb_build_object('userId', u.user_id, 'type', 'sms.received', 'orderKey', u.contact_id,
          'at', new.received_at, 'data', jsonb_build_object('id', new.provider_message_id, 'from', new.phone,
            'to', new.to_number, 'body', new.body, 'keyword', new.keyword, 'contactId', u.contact_id,
            'receivedAt', new.received_at)))
        from (
          select r.user_id, webhook_contact_of_number(r.user_id, new.phone) as contact_id
          from (
            select new.user_id as user_id where new.user_id is not null
            union
            select ci.user_id from caller_ids ci where new.user_id is null and ci.number_e164 = new.to_number
          ) r
          where webhook_wanted(r.user_id, 'sms.received')
        ) u), '[]'));
      return null;
    end $$;
    create trigger sms_inbound_messages_webhooks after insert on sms_inbound_messages
      for each row execute function webhooks_on_sms_inbound();

    create function webhooks_on_text_opt_out() returns trigger language plpgsql as $$
    begin
      if not exists (select 1 from webhook_endpoints where enabled) then return null; end if;
      perform queue_webhook_events(coalesce((
        select jsonb_agg(jsonb_build_object('userId', u.user_id, 'type', 'opt-out.recorded', 'orderKey', u.contact_id,
          'at', new.created_at, 'data', jsonb_build_object('channel', 'text', 'contactId', u.contact_id,
            'number', new.phone, 'email', null, 'reason', 'Replied ' || new.keyword, 'recordedAt', new.created_at)))
        from (
          select r.user_id, webhook_contact_of_number(r.user_id, new.phone) as contact_id
          from (
            select distinct w.user_id from webhook_endpoints w
            where w.enabled and 'opt-out.recorded' = any(w.events) and (new.user_id is null or w.user_id = new.user_id)
          ) r
        ) u
        -- A user's own opt-out (a reply they simulated) always; a real STOP to those who have the number.
        where new.user_id is not null or u.contact_id is not null), '[]'));
      return null;
    end $$;
    create trigger sms_opt_outs_webhooks after insert on sms_opt_outs
      for each row execute function webhooks_on_text_opt_out();

    create function webhooks_on_unsubscribe() returns trigger language plpgsql as $$
    declare
      contact uuid;
    begin
      if webhook_wanted(new.user_id, 'opt-out.recorded') then
        select r.contact_id into contact from email_campaign_recipients r
          where r.campaign_id = new.campaign_id and lower(r.email) = new.email limit 1;
        perform queue_webhook_events(jsonb_build_array(jsonb_build_object('userId', new.user_id,
          'type', 'opt-out.recorded', 'orderKey', contact, 'at', new.created_at, 'data', jsonb_build_object(
            'channel', 'email', 'contactId', contact, 'number', null, 'email', new.email,
            'reason', 'Unsubscribed from a campaign e-mail', 'campaignId', new.campaign_id,
            'recordedAt', new.created_at))));
      end if;
      return null;
    end $$;
    create trigger email_unsubscribes_webhooks after insert on email_unsubscribes
      for each row execute function webhooks_on_unsubscribe();

    create function webhooks_on_consent_opt_out() returns trigger language plpgsql as $$
    begin
      if webhook_wanted(new.user_id, 'opt-out.recorded') then
        perform queue_webhook_events(jsonb_build_array(jsonb_build_object('userId', new.user_id,
          'type', 'opt-out.recorded', 'orderKey', new.contact_id, 'at', new.decided_at, 'data', jsonb_build_object(
            'channel', new.channel, 'contactId', new.contact_id, 'number', new.number, 'email', null,
            'reason', new.reason, 'code', new.code, 'recordedAt', new.decided_at))));
      end if;
      return null;
    end $$;
    create trigger consent_decisions_webhooks after insert on consent_decisions
      for each row when (new.outcome = 'opted-out') execute function webhooks_on_consent_opt_out();

    create function webhooks_on_campaign_finished() returns trigger language plpgsql as $$
    declare
      counts jsonb;
      kind text := case
        when tg_table_name = 'sms_campaigns' then 'sms'
        when to_jsonb(new) ->> 'campaign_type' = 'sequence' then 'sequence'
        else 'email' end;
    begin
      if webhook_wanted(new.user_id, 'campaign.finished') then
        if tg_table_name = 'sms_campaigns' then
          select coalesce(jsonb_object_agg(state, n), '{}') into counts from sms_campaign_counts where campaign_id = new.id;
        else
          select coalesce(jsonb_object_agg(state, n), '{}') into counts from email_campaign_counts where campaign_id = new.id;
        end if;
        perform queue_webhook_events(jsonb_build_array(jsonb_build_object('userId', new.user_id,
          'type', 'campaign.finished', 'orderKey', null, 'data', jsonb_build_object('id', new.id, 'kind', kind,
            'name', new.name, 'startedAt', new.started_at, 'finishedAt', new.finished_at, 'recipients', counts))));
      end if;
      return null;
    end $$;

    create function webhooks_on_voicemail() returns trigger language plpgsql as $$
    begin
      if webhook_wanted(new.user_id, 'voicemail.received') then
        perform queue_webhook_events((select jsonb_build_array(jsonb_build_object('userId', new.user_id,
          'type', 'voicemail.received', 'orderKey', new.contact_id, 'at', new.created_at, 'data', jsonb_build_object(
            'id', new.id, 'callId', new.call_id, 'contactId', new.contact_id, 'from', c.from_number,
            'to', c.to_number, 'durationSeconds', new.duration_seconds, 'receivedAt', new.created_at,
            'audioPath', '/api/recordings/' || new.id || '/audio')))
          from calls c where c.id = new.call_id));
      end if;
      return null;
    end $$;
    create trigger recordings_webhooks after insert on recordings
      for each row when (new.kind = 'voicemail') execute function webhooks_on_voicemail();
  `.execute(db);

  for (const table of ['email_campaigns', 'sms_campaigns']) {
    await sql`
      create trigger ${sql.id(`${table}_webhooks`)} after update of status on ${sql.table(table)}
        for each row when (new.status = 'sent' and old.status is distinct from 'sent')
        execute function webhooks_on_campaign_finished();
    `.execute(db);
  }
}
