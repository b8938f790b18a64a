import { sql, type Kysely } from 'kysely';

/**
 * E-mail from the CRM and contacts in and out (contact e-mails, email template
 * and email configuration): each user's SMTP settings (password encrypted by the server), templates, the e-mails
 * sent to contacts (those that went to the outbox because no server was configured included), and a record of each
 * import with its report, and the indexes imports match existing contacts on (e-mail, phone).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table email_configurations (user_id uuid primary key references auth_users (id) on delete cascade,
      email text not null check (length(email) <= 254),
      username text check (length(username) <= 254),
      from_name text check (length(from_name) <= 100),
      server text not null check (length(server) <= 253),
      port integer not null check (port between 1 and 65535),
      password_encrypted text not null check (length(password_encrypted) <= 2000),
      use_ssl boolean not null default true check (use_ssl),
      updated_at timestamptz not null default now()
    );

    create table email_templates (id uuid primary key default gen_random_uuid(),
      user_id uuid not null references auth_users (id) on delete cascade,
      name text not null check (length(name) between 1 and 100),
      subject text not null check (length(subject) between 1 and 998),
      content text not null check (length(content) between 1 and 100000),
      is_default boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index email_templates_name_idx on email_templates (user_id, lower(name));
    create unique index email_templates_one_default_idx on email_templates (user_id) where is_default;

    create table contact_emails (id uuid primary key default gen_random_uuid(),
      contact_id uuid not null references contacts (id) on delete cascade,
      user_id uuid not null references auth_users (id) on delete cascade,
      template_id uuid references email_templates (id) on delete set null,
      direction text not null default 'outbound' check (direction in ('outbound', 'inbound')),
      delivery text not null check (delivery in ('smtp', 'outbox')),
      from_address text not null check (length(from_address) <= 400),
      to_address text not null check (length(to_address) <= 254),
      subject text not null check (length(subject) <= 998),
      content text not null check (length(content) <= 100000),
      message_id text check (length(message_id) <= 998),
      sent_at timestamptz not null default now()
    );
    create index contact_emails_contact_idx on contact_emails (contact_id, sent_at desc);
    create index contact_emails_outbox_idx on contact_emails (user_id, sent_at desc) where delivery = 'outbox';

    create table contact_imports (id uuid primary key default gen_random_uuid(),
      user_id uuid not null references auth_users (id) on delete cascade,
      file_name text not null check (length(file_name) <= 255),
      format text not null check (format in ('csv', 'xlsx', 'vcard')),
      duplicates text not null check (duplicates in ('skip', 'update')),
      status text not null default 'running' check (status in ('running', 'done', 'failed')),
      total_rows integer not null default 0,
      created integer not null default 0,
      updated integer not null default 0,
      skipped integer not null default 0,
      -- Skipped rows with their reasons, capped (the counts above are complete).
      skipped_rows jsonb not null default '[]',
      error text check (length(error) <= 2000),
      created_at timestamptz not null default now(),
      finished_at timestamptz
    );
    create index contact_imports_user_idx on contact_imports (user_id, created_at desc);

    -- Imports match a row to an existing contact by e-mail (migration 0008), or without one by phone number,
    -- batch by batch. Both keys are spread evenly, so parallel import savers never wait on the same index page.
    create index contacts_user_phone_e164_idx on contacts (user_id, phone_e164) where phone_e164 is not null;

    -- The export's spreadsheet-safety escape (domain/contacts/contact-csv.ts escapeCell), for COPY.
    create function csv_safe(value text) returns text language sql immutable parallel safe as $$
      select case when left(value, 1) in ('=', '+', '-', '@', chr(9), chr(13), '''') then '''' || value
        else value end
    $$;

    -- A bulk writer (an import) may hold back the per-statement contact notices and send one when it is done.
    create or replace function notify_contacts_changed() returns trigger language plpgsql as $$
    declare
      owner record;
    begin
      if current_setting('app.quiet', true) = 'on' then return null; end if;
      for owner in select user_id, count(*) as n, min(id::text) as one_id from changed group by user_id loop
        perform pg_notify('app_changes', json_build_object('topic', 'contacts', 'op', tg_op, 'id', case when owner.n = 1 then owner.one_id else '*' end,
          'userId', owner.user_id, 'role', null)::text);
      end loop;
      return null;
    end $$;

    -- Realtime for tables owned by a user: one notice per statement and owner, topic in TG_ARGV[0].
    create function notify_owned_changes() returns trigger language plpgsql as $$
    declare
      owner record;
    begin
      for owner in select user_id, count(*) as n, min(id::text) as one_id from changed group by user_id loop
        perform pg_notify('app_changes', json_build_object('topic', tg_argv[0], 'op', tg_op, 'id', case when owner.n = 1 then owner.one_id else '*' end,
          'userId', owner.user_id, 'role', null)::text);
      end loop;
      return null;
    end $$;
  `.execute(db);

  const watched: [table: string, topic: string][] = [
    ['contact_emails', 'contacts'],
    ['email_templates', 'email'],
    ['contact_imports', 'contacts'],
  ];
  for (const [table, topic] of watched) {
    for (const [op, transition] of [
      ['insert', 'new'],
      ['update', 'new'],
      ['delete', 'old'],
    ] as const) {
      await sql`
        create trigger ${sql.id(`${table}_notify_${op}`)} after ${sql.raw(op)} on ${sql.table(table)}
          referencing ${sql.raw(transition)} table as changed
          for each statement execute function notify_owned_changes(${sql.lit(topic)});
      `.execute(db);
    }
  }

  for (const table of ['email_configurations', 'email_templates', 'contact_emails', 'contact_imports']) {
    await sql`
      alter table ${sql.table(table)} enable row level security;
      alter table ${sql.table(table)} force row level security;
      create policy ${sql.id(`${table}_owner`)} on ${sql.table(table)}
        using (user_id = nullif(current_setting('app.user_id', true), '')::uuid)
        with check (user_id = nullif(current_setting('app.user_id', true), '')::uuid);
    `.execute(db);
  }
}
