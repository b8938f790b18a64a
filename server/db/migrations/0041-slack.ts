import { sql, type Kysely } from 'kysely';

/**
 * Slack (decision 034): one incoming webhook per user, kept sealed (its address is its secret), with the events the
 * user chose and the state of the last post. Triggers queue a post, in the same transaction, for each event chosen:
 * a qualified disposition, and the campaign and missed-call notifications the app already makes. The job builds
 * the message and posts it (server/modules/slack/slack-post.task.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table slack_connections (
      user_id uuid primary key references auth_users (id) on delete cascade,
      webhook_url_sealed text not null check (length(webhook_url_sealed) <= 2000),
      destination text not null check (length(destination) <= 600),
      events text[] not null default '{}',
      connected_at timestamptz not null default now(),
      last_sent_at timestamptz,
      last_error text check (length(last_error) <= 500),
      last_error_at timestamptz
    );
    alter table slack_connections enable row level security;
    alter table slack_connections force row level security;
    create policy slack_connections_owner on slack_connections
      using (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system')
      with check (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system');

    create function queue_slack_post(target uuid, slack_event text, subject jsonb) returns void
    language plpgsql as $$
    begin
      if exists (select 1 from slack_connections where user_id = target and slack_event = any(events)) then
        perform graphile_worker.add_job(identifier => 'slack-post',
          payload => (jsonb_build_object('userId', target, 'event', slack_event) || subject)::json, max_attempts => 8);
      end if;
    end $$;

    create function slack_on_notification() returns trigger language plpgsql as $$
    begin
      if new.kind in ('campaign-finished', 'campaign-failed', 'missed-call') then
        perform queue_slack_post(new.user_id, new.kind, jsonb_build_object('notificationId', new.id));
      end if;
      return null;
    end $$;
    create trigger notifications_slack after insert on notifications
      for each row execute function slack_on_notification();

    create function slack_on_disposition() returns trigger language plpgsql as $$
    begin
      if new.is_qualified and new.contact_id is not null then
        perform queue_slack_post(new.user_id, 'qualified-lead', jsonb_build_object('dispositionId', new.id));
      end if;
      return null;
    end $$;
    create trigger call_dispositions_slack after insert on call_dispositions
      for each row execute function slack_on_disposition();
  `.execute(db);
}
