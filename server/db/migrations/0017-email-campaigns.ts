import { sql, type Kysely } from 'kysely';

/**
 * E-mail campaigns that send (–2.3, email campaign; decision 000 "E-mail campaigns …
 * only ever reach draft"; docs/decisions/017-email-campaigns.md):
 *  - a campaign: name, type (one-time campaign, or sequence), subject and body with merge fields, status, pace;
 *  - its recipients as rows (a campaign of 10,000 is 10,000 rows, not a growing JSON list), each with its state:
 *    queued, sending (handed to the mail server, outcome not yet recorded), sent, failed (the server's words),
 *    skipped (why), unconfirmed (the server stopped while it was being handed over: never sent again blindly);
 *  - addresses that unsubscribed, per sender (user), from a link in a campaign e-mail; each recipient has its own
 *    random unsubscribe token;
 *  - campaigns announce their changes live on the topic 'campaigns'.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table email_campaigns (id uuid primary key default gen_random_uuid(),
      user_id uuid not null references auth_users (id) on delete cascade,
      name text not null check (length(name) between 1 and 200),
      campaign_type text not null default 'campaign' check (campaign_type in ('campaign', 'sequence')),
      subject text not null default '' check (length(subject) <= 998),
      body text not null default '' check (length(body) <= 100000),
      status text not null default 'draft' check (status in ('draft', 'sending', 'paused', 'sent', 'canceled')),
      per_minute integer not null default 60 check (per_minute between 1 and 3000),
      project_id uuid references projects (id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz
    );
    create index email_campaigns_user_idx on email_campaigns (user_id, created_at desc);

    create table email_campaign_recipients (campaign_id uuid not null references email_campaigns (id) on delete cascade,
      contact_id uuid not null,
      user_id uuid not null,
      position bigint generated always as identity,
      state text not null default 'queued'
        check (state in ('queued', 'sending', 'sent', 'failed', 'skipped', 'unconfirmed')),
      reason text check (length(reason) <= 1000),
      email text,
      attempted_at timestamptz,
      sent_at timestamptz,
      message_id text,
      delivery text check (delivery in ('smtp', 'outbox')),
      unsubscribe_token uuid not null default gen_random_uuid(),
      primary key (campaign_id, contact_id)
    );
    create index email_campaign_recipients_queued_idx on email_campaign_recipients (campaign_id, position)
      where state in ('queued', 'sending');
    create index email_campaign_recipients_contact_idx on email_campaign_recipients (contact_id);
    create unique index email_campaign_recipients_token_idx on email_campaign_recipients (unsubscribe_token);

    -- Per-state counts kept per statement, so the campaign list never counts 10,000 rows per campaign.
    create table email_campaign_counts (campaign_id uuid not null references email_campaigns (id) on delete cascade,
      user_id uuid not null,
      state text not null,
      n integer not null default 0,
      primary key (campaign_id, state)
    );
    create function email_recipients_counted() returns trigger language plpgsql as $$
    begin
      insert into email_campaign_counts as c (campaign_id, user_id, state, n)
      select campaign_id, min(user_id::text)::uuid, state, sum(delta) from (select campaign_id, user_id, state, 1 as delta from added
        union all
        select campaign_id, user_id, state, -1 from removed
      ) changes
      group by campaign_id, state
      having sum(delta) <> 0
      order by campaign_id, state
      on conflict (campaign_id, state) do update set n = c.n + excluded.n;
      return null;
    end $$;
    create function email_recipients_inserted() returns trigger language plpgsql as $$
    begin
      insert into email_campaign_counts as c (campaign_id, user_id, state, n)
      select campaign_id, min(user_id::text)::uuid, state, count(*) from added group by campaign_id, state
      order by campaign_id, state
      on conflict (campaign_id, state) do update set n = c.n + excluded.n;
      return null;
    end $$;
    create function email_recipients_deleted() returns trigger language plpgsql as $$
    begin
      update email_campaign_counts c set n = c.n - d.n
      from (select campaign_id, state, count(*) as n from removed group by campaign_id, state) d
      where c.campaign_id = d.campaign_id and c.state = d.state;
      return null;
    end $$;
    create trigger email_recipients_count_insert after insert on email_campaign_recipients
      referencing new table as added for each statement execute function email_recipients_inserted();
    create trigger email_recipients_count_update after update on email_campaign_recipients
      referencing old table as removed new table as added for each statement execute function email_recipients_counted();
    create trigger email_recipients_count_delete after delete on email_campaign_recipients
      referencing old table as removed for each statement execute function email_recipients_deleted();

    -- A campaign's progress is announced as it moves (one notice per statement and campaign).
    create function notify_campaign_counts() returns trigger language plpgsql as $$
    declare
      moved record;
    begin
      for moved in select distinct user_id, campaign_id from changed loop
        perform pg_notify('app_changes', json_build_object('topic', 'campaigns', 'op', tg_op, 'id', moved.campaign_id, 'userId', moved.user_id, 'role', null)::text);
      end loop;
      return null;
    end $$;
    create trigger email_campaign_counts_notify_insert after insert on email_campaign_counts
      referencing new table as changed for each statement execute function notify_campaign_counts();
    create trigger email_campaign_counts_notify_update after update on email_campaign_counts
      referencing new table as changed for each statement execute function notify_campaign_counts();

    create table email_unsubscribes (user_id uuid not null references auth_users (id) on delete cascade,
      email text not null check (length(email) <= 320),
      campaign_id uuid,
      created_at timestamptz not null default now(),
      primary key (user_id, email)
    );
  `.execute(db);

  for (const table of [
    'email_campaigns',
    'email_campaign_recipients',
    'email_campaign_counts',
    'email_unsubscribes',
  ]) {
    await sql`
      alter table ${sql.table(table)} enable row level security;
      alter table ${sql.table(table)} force row level security;
      create policy ${sql.id(`${table}_owner`)} on ${sql.table(table)}
        using (user_id::text = current_setting('app.user_id', true))
        with check (user_id::text = current_setting('app.user_id', true));
      -- The sending job and the unsubscribe page act with no session, as the system.
      create policy ${sql.id(`${table}_system`)} on ${sql.table(table)}
        using (current_setting('app.actor', true) = 'system')
        with check (current_setting('app.actor', true) = 'system');
    `.execute(db);
  }

  for (const [op, transition] of [
    ['insert', 'new'],
    ['update', 'new'],
    ['delete', 'old'],
  ] as const) {
    await sql`
      create trigger ${sql.id(`email_campaigns_notify_${op}`)} after ${sql.raw(op)} on email_campaigns
        referencing ${sql.raw(transition)} table as changed
        for each statement execute function notify_owned_changes('campaigns');
    `.execute(db);
  }
}
