import { sql, type Kysely } from 'kysely';

/**
 * Contacts, their history, call dispositions (written by the calling issue; the latest one
 * drives the derived flags), and call queues with membership as rows (decision 000) including the default queue.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create extension if not exists btree_gin;

    create table contacts (id uuid primary key default gen_random_uuid(),
      user_id uuid not null references auth_users (id) on delete cascade,
      first_name text not null check (length(first_name) <= 100),
      last_name text not null check (length(last_name) <= 100),
      email text not null default '' check (length(email) <= 254),
      phone text check (length(phone) <= 40),
      phone_e164 text check (length(phone_e164) <= 41),
      company text check (length(company) <= 200),
      website text check (length(website) <= 500),
      title text check (length(title) <= 200),
      notes text check (length(notes) <= 10000),
      status text not null default 'new' check (status in ('new', 'contacted', 'active', 'inactive')),
      tags text[] not null default '{}' check (cardinality(tags) <= 50),
      is_cold_lead boolean not null default false,
      synced boolean not null default true,
      last_synced_at timestamptz,
      sync_error boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
 -- Maintained from call_dispositions by trigger: the latest disposition per contact.
      last_call_at timestamptz,
      latest_disposition text,
      latest_disposition_qualified boolean,
      -- The derived flags, as generated columns so lists can filter, count and index on them; never stale.
      needs_attention boolean generated always as (status = 'new'
        or coalesce(notes, '') ~* '(follow up|callback)'
        or coalesce(latest_disposition in ('call-back', 'callback', 'interested'), false)
      ) stored,
      is_qualified boolean generated always as (coalesce(latest_disposition_qualified, false) or coalesce(latest_disposition = 'qualified', false) or status = 'active'
      ) stored,
      name_sort text generated always as (lower(first_name || ' ' || last_name)) stored,
      search_text text generated always as (lower(first_name || ' ' || last_name || ' ' || email || ' ' || coalesce(company, '') || ' ' || coalesce(phone, '')
        || ' ' || regexp_replace(coalesce(phone, ''), '\\D', '', 'g')
      )) stored,
      phone_digits text generated always as (regexp_replace(coalesce(phone, ''), '\\D', '', 'g')) stored
    );

    create index contacts_user_created_idx on contacts (user_id, created_at desc, id desc);
    create index contacts_user_name_idx on contacts (user_id, name_sort, id);
    create index contacts_user_last_call_idx on contacts (user_id, last_call_at, id);
    create index contacts_cold_idx on contacts (user_id, created_at desc, id desc) where is_cold_lead;
    create index contacts_attention_idx on contacts (user_id, created_at desc, id desc) where needs_attention;
    create index contacts_qualified_idx on contacts (user_id, created_at desc, id desc) where is_qualified;
    create index contacts_search_idx on contacts using gin (user_id, search_text gin_trgm_ops);
    create index contacts_tags_idx on contacts using gin (user_id, tags);
    create index contacts_first_name_prefix_idx on contacts (user_id, lower(first_name) text_pattern_ops);
    create index contacts_last_name_prefix_idx on contacts (user_id, lower(last_name) text_pattern_ops);
    create index contacts_email_prefix_idx on contacts (user_id, lower(email) text_pattern_ops);
    create index contacts_company_prefix_idx on contacts (user_id, lower(company) text_pattern_ops);
    create index contacts_phone_prefix_idx on contacts (user_id, phone_digits text_pattern_ops);

    create table contact_history (id uuid primary key default gen_random_uuid(),
      contact_id uuid not null references contacts (id) on delete cascade,
      user_id uuid not null references auth_users (id) on delete cascade,
      changed_fields text[] not null,
      previous_values jsonb not null,
      new_values jsonb not null,
      changed_at timestamptz not null default now()
    );
    create index contact_history_contact_idx on contact_history (contact_id, changed_at desc);

    -- Calls and dispositions outlive a deleted contact (decision 000): the link is cleared, the row stays.
    create table call_dispositions (id uuid primary key default gen_random_uuid(),
      contact_id uuid references contacts (id) on delete set null,
      user_id uuid not null references auth_users (id) on delete cascade,
      disposition text not null check (disposition in ('answered', 'no-answer', 'busy', 'voicemail', 'call-back', 'not-interested', 'qualified', 'do-not-call',
        'callback', 'interested')),
      notes text check (length(notes) <= 10000),
      call_duration integer check (call_duration >= 0),
      is_qualified boolean not null default false,
      called_at timestamptz not null default now(),
      queue_id text,
      callback_date timestamptz,
      created_at timestamptz not null default now()
    );
    create index call_dispositions_contact_idx on call_dispositions (contact_id, called_at desc);
    create index call_dispositions_user_idx on call_dispositions (user_id, called_at desc);

    create function refresh_latest_disposition(target uuid) returns void language sql as $$
      update contacts c set
        last_call_at = d.called_at,
        latest_disposition = d.disposition,
        latest_disposition_qualified = d.is_qualified
      from (select null as x) dummy
      left join lateral (select called_at, disposition, is_qualified from call_dispositions
        where contact_id = target order by called_at desc, created_at desc limit 1
      ) d on true
      where c.id = target;
    $$;

    create function call_dispositions_changed() returns trigger language plpgsql as $$
    begin
      if tg_op in ('UPDATE', 'DELETE') and old.contact_id is not null then
        perform refresh_latest_disposition(old.contact_id);
      end if;
      if tg_op in ('INSERT', 'UPDATE') and new.contact_id is not null
         and (tg_op = 'INSERT' or new.contact_id is distinct from old.contact_id or new.called_at <> old.called_at
              or new.disposition <> old.disposition or new.is_qualified <> old.is_qualified) then
        perform refresh_latest_disposition(new.contact_id);
      end if;
      return null;
    end $$;
    create trigger call_dispositions_latest after insert or update or delete on call_dispositions
      for each row execute function call_dispositions_changed();

    create table power_dialer_queues (id uuid primary key default gen_random_uuid(),
      queue_id text not null check (length(queue_id) <= 100),
      queue_name text not null check (length(queue_name) between 1 and 200),
      user_id uuid not null references auth_users (id) on delete cascade,
      last_contact_index integer not null default 0,
      created_at timestamptz not null default now(),
      last_modified timestamptz not null default now(),
      unique (user_id, queue_id)
    );

    create sequence queue_member_position_seq;
    create table queue_members (queue_id uuid not null references power_dialer_queues (id) on delete cascade,
      contact_id uuid not null references contacts (id) on delete cascade,
      user_id uuid not null references auth_users (id) on delete cascade,
      position bigint not null default nextval('queue_member_position_seq'),
      completed boolean not null default false,
      added_at timestamptz not null default now(),
      primary key (queue_id, contact_id)
    );
    create index queue_members_order_idx on queue_members (queue_id, position);
    create index queue_members_contact_idx on queue_members (contact_id);

    -- Realtime: one notice per statement and owner, so a bulk delete of 10,000 contacts sends one, not 10,000.
    create function notify_contacts_changed() returns trigger language plpgsql as $$
    declare
      owner record;
    begin
      for owner in select user_id, count(*) as n, min(id::text) as one_id from changed group by user_id loop
        perform pg_notify('app_changes', json_build_object('topic', 'contacts', 'op', tg_op, 'id', case when owner.n = 1 then owner.one_id else '*' end,
          'userId', owner.user_id, 'role', null)::text);
      end loop;
      return null;
    end $$;
    create trigger contacts_notify_insert after insert on contacts referencing new table as changed
      for each statement execute function notify_contacts_changed();
    create trigger contacts_notify_update after update on contacts referencing new table as changed
      for each statement execute function notify_contacts_changed();
    create trigger contacts_notify_delete after delete on contacts referencing old table as changed
      for each statement execute function notify_contacts_changed();
  `.execute(db);

  for (const table of [
    'contacts',
    'contact_history',
    'call_dispositions',
    'power_dialer_queues',
    'queue_members',
  ]) {
    await sql`
      alter table ${sql.table(table)} enable row level security;
      alter table ${sql.table(table)} force row level security;
      create policy ${sql.id(`${table}_owner`)} on ${sql.table(table)}
        using (user_id::text = current_setting('app.user_id', true))
        with check (user_id::text = current_setting('app.user_id', true));
    `.execute(db);
  }
}
