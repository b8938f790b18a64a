import { sql, type Kysely } from 'kysely';

/**
 * SMS campaigns (sms_campaigns; docs/decisions/019-sms-campaigns.md):
 *  - a campaign: name, message with merge fields, status, pace, project;
 *  - its recipients as rows with their state (as e-mail campaigns: queued, sending, sent, failed, skipped,
 *    unconfirmed), the number messaged, the provider's message id and delivery report, and the last reply; each has
 *    a random reference that travels in the provider's status callback URL;
 *  - per-state counts kept by triggers, and live notices on the topic 'campaigns';
 *  - numbers that replied STOP (sms_opt_outs): no SMS from this instance goes to them until they reply START. The
 *    list is the instance's, not a user's, because users share the numbers messages go out from, and a carrier's
 *    STOP applies to the number that sent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sms_campaigns (id uuid primary key default gen_random_uuid(),
      user_id uuid not null references auth_users (id) on delete cascade,
      name text not null check (length(name) between 1 and 200),
      message text not null check (length(message) between 1 and 1600),
      status text not null default 'draft' check (status in ('draft', 'sending', 'paused', 'sent', 'canceled')),
      per_minute integer not null default 60 check (per_minute between 1 and 3000),
      project_id uuid references projects (id) on delete set null,
      pause_reason text check (length(pause_reason) <= 1000),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz
    );
    create index sms_campaigns_user_idx on sms_campaigns (user_id, created_at desc);

    create table sms_campaign_recipients (campaign_id uuid not null references sms_campaigns (id) on delete cascade,
      contact_id uuid not null,
      user_id uuid not null,
      position bigint generated always as identity,
      state text not null default 'queued'
        check (state in ('queued', 'sending', 'sent', 'failed', 'skipped', 'unconfirmed')),
      reason text check (length(reason) <= 1000),
      phone text,
      from_number text,
      attempted_at timestamptz,
      sent_at timestamptz,
      send_ref uuid not null default gen_random_uuid(),
      provider_message_id text,
      delivery text check (delivery in ('queued', 'sent', 'delivered', 'undelivered', 'failed')),
      delivery_error text check (length(delivery_error) <= 1000),
      reply text check (length(reply) <= 1600),
      replied_at timestamptz,
      primary key (campaign_id, contact_id)
    );
    create index sms_campaign_recipients_queued_idx on sms_campaign_recipients (campaign_id, position)
      where state in ('queued', 'sending');
    create index sms_campaign_recipients_contact_idx on sms_campaign_recipients (contact_id);
    create unique index sms_campaign_recipients_ref_idx on sms_campaign_recipients (send_ref);
    create index sms_campaign_recipients_phone_idx on sms_campaign_recipients (phone, sent_at desc)
      where phone is not null;

    create table sms_campaign_counts (campaign_id uuid not null references sms_campaigns (id) on delete cascade,
      user_id uuid not null,
      state text not null,
      n integer not null default 0,
      primary key (campaign_id, state)
    );
    create function sms_recipients_counted() returns trigger language plpgsql as $$
    begin
      insert into sms_campaign_counts as c (campaign_id, user_id, state, n)
      select campaign_id, min(user_id::text)::uuid, state, sum(delta) from (select campaign_id, user_id, state, 1 as delta from added
        union all
        select campaign_id, user_id, state, -1 from removed
        union all
        select campaign_id, user_id, 'delivered', 1 from added where delivery = 'delivered'
        union all
        select campaign_id, user_id, 'delivered', -1 from removed where delivery = 'delivered'
      ) changes
      group by campaign_id, state
      having sum(delta) <> 0
      order by campaign_id, state
      on conflict (campaign_id, state) do update set n = c.n + excluded.n;
      return null;
    end $$;
    create function sms_recipients_inserted() returns trigger language plpgsql as $$
    begin
      insert into sms_campaign_counts as c (campaign_id, user_id, state, n)
      select campaign_id, min(user_id::text)::uuid, state, count(*) from added group by campaign_id, state
      order by campaign_id, state
      on conflict (campaign_id, state) do update set n = c.n + excluded.n;
      return null;
    end $$;
    create function sms_recipients_deleted() returns trigger language plpgsql as $$
    begin
      update sms_campaign_counts c set n = c.n - d.n
      from (select campaign_id, state, count(*) as n from removed group by campaign_id, state
        union all
        select campaign_id, 'delivered', count(*) from removed where delivery = 'delivered' group by campaign_id
      ) d
      where c.campaign_id = d.campaign_id and c.state = d.state;
      return null;
    end $$;
    create trigger sms_recipients_count_insert after insert on sms_campaign_recipients
      referencing new table as added for each statement execute function sms_recipients_inserted();
    create trigger sms_recipients_count_update after update on sms_campaign_recipients
      referencing old table as removed new table as added for each statement execute function sms_recipients_counted();
    create trigger sms_recipients_count_delete after delete on sms_campaign_recipients
      referencing old table as removed for each statement execute function sms_recipients_deleted();
    create trigger sms_campaign_counts_notify_insert after insert on sms_campaign_counts
      referencing new table as changed for each statement execute function notify_campaign_counts();
    create trigger sms_campaign_counts_notify_update after update on sms_campaign_counts
      referencing new table as changed for each statement execute function notify_campaign_counts();

    create table sms_opt_outs (phone text primary key check (length(phone) <= 20),
      keyword text not null check (length(keyword) <= 20),
      created_at timestamptz not null default now()
    );
  `.execute(db);

  for (const table of ['sms_campaigns', 'sms_campaign_recipients', 'sms_campaign_counts']) {
    await sql`
      alter table ${sql.table(table)} enable row level security;
      alter table ${sql.table(table)} force row level security;
      create policy ${sql.id(`${table}_owner`)} on ${sql.table(table)}
        using (user_id::text = current_setting('app.user_id', true))
        with check (user_id::text = current_setting('app.user_id', true));
      create policy ${sql.id(`${table}_system`)} on ${sql.table(table)}
        using (current_setting('app.actor', true) = 'system')
        with check (current_setting('app.actor', true) = 'system');
    `.execute(db);
  }
  // Opt-outs: every user's sends read them (no SMS to an opted-out number, whoever sends); only replies write them.
  await sql`
    alter table sms_opt_outs enable row level security;
    alter table sms_opt_outs force row level security;
    create policy sms_opt_outs_read on sms_opt_outs for select using (true);
    create policy sms_opt_outs_system on sms_opt_outs
      using (current_setting('app.actor', true) = 'system')
      with check (current_setting('app.actor', true) = 'system');
  `.execute(db);

  for (const [op, transition] of [
    ['insert', 'new'],
    ['update', 'new'],
    ['delete', 'old'],
  ] as const) {
    await sql`
      create trigger ${sql.id(`sms_campaigns_notify_${op}`)} after ${sql.raw(op)} on sms_campaigns
        referencing ${sql.raw(transition)} table as changed
        for each statement execute function notify_owned_changes('campaigns');
    `.execute(db);
  }
}
