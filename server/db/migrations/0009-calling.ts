import { sql, type Kysely } from 'kysely';

/**
 * Calling (call record, call disposition): each user's caller-ID numbers, every
 * call attempt with its state, the per-user lock that makes "one call being placed at a time" hold across tabs,
 * devices and server instances, the do-not-call list, and dispositions linked to the call they were saved for.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table caller_ids (id uuid primary key default gen_random_uuid(),
      user_id uuid not null references auth_users (id) on delete cascade,
      number text not null check (length(number) <= 40),
      number_e164 text not null check (length(number_e164) <= 41),
      label text check (length(label) <= 100),
      is_default boolean not null default false,
      created_at timestamptz not null default now(),
      unique (user_id, number_e164)
    );
    create unique index caller_ids_one_default_idx on caller_ids (user_id) where is_default;

    create table calls (id uuid primary key default gen_random_uuid(),
      user_id uuid not null references auth_users (id) on delete cascade,
      -- Calls outlive a deleted contact (decision 000): the link is cleared, the row stays in the logs.
      contact_id uuid references contacts (id) on delete set null,
      request_id text not null check (request_id ~ '^[a-z0-9]{8}$'),
      provider text not null check (provider in ('simulator', 'twilio')),
      provider_call_id text check (length(provider_call_id) <= 100),
      from_number text not null check (length(from_number) <= 41),
      to_number text not null check (length(to_number) <= 41),
      status text not null default 'queued' check (status in ('queued', 'initiated', 'ringing', 'in-progress',
        'completed', 'busy', 'no-answer', 'failed', 'canceled')),
      error text check (length(error) <= 2000),
      started_at timestamptz not null default now(),
      answered_at timestamptz,
      ended_at timestamptz,
      duration_seconds integer check (duration_seconds >= 0),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      -- A request id is idempotent: the same click sent twice is one call.
      unique (user_id, request_id)
    );
    create unique index calls_provider_call_idx on calls (provider, provider_call_id) where provider_call_id is not null;
    create index calls_user_started_idx on calls (user_id, started_at desc);
    create index calls_user_to_idx on calls (user_id, to_number, started_at desc);
    create index calls_contact_idx on calls (contact_id, started_at desc);
    create index calls_unfinished_idx on calls (updated_at) where status in ('queued', 'initiated', 'ringing', 'in-progress');

    -- "One call of this user is being placed" (decision 000): taken when a call starts, released when the provider
    -- accepts or refuses it, stale after 8 s.
    create table call_locks (user_id uuid primary key references auth_users (id) on delete cascade,
      request_id text not null,
      taken_at timestamptz not null
    );

    create table do_not_call (user_id uuid not null references auth_users (id) on delete cascade,
      number_e164 text not null check (length(number_e164) <= 41),
      added_at timestamptz not null default now(),
      primary key (user_id, number_e164)
    );

    alter table call_dispositions
      add column call_id uuid references calls (id) on delete set null,
      add column qualification text check (qualification in ('cold', 'warm', 'hot', 'qualified', 'client'));
    create index call_dispositions_call_idx on call_dispositions (call_id);
    create index call_dispositions_callback_idx on call_dispositions (user_id, callback_date) where callback_date is not null;
  `.execute(db);

  // Live call logs: calls, dispositions and caller IDs announce their changes on 'calls'.
  for (const table of ['calls', 'call_dispositions', 'caller_ids']) {
    for (const [op, transition] of [
      ['insert', 'new'],
      ['update', 'new'],
      ['delete', 'old'],
    ] as const) {
      await sql`
        create trigger ${sql.id(`${table}_notify_${op}`)} after ${sql.raw(op)} on ${sql.table(table)}
          referencing ${sql.raw(transition)} table as changed
          for each statement execute function notify_owned_changes('calls');
      `.execute(db);
    }
  }

  for (const table of ['caller_ids', 'calls', 'call_locks', 'do_not_call']) {
    await sql`
      alter table ${sql.table(table)} enable row level security;
      alter table ${sql.table(table)} force row level security;
      create policy ${sql.id(`${table}_owner`)} on ${sql.table(table)}
        using (user_id = nullif(current_setting('app.user_id', true), '')::uuid)
        with check (user_id = nullif(current_setting('app.user_id', true), '')::uuid);
    `.execute(db);
  }
  // Provider status events arrive with no session: the system actor applies them (and closes stale calls).
  await sql`
    create policy calls_system on calls using (current_setting('app.actor', true) = 'system');
  `.execute(db);
}
