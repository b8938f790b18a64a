import { sql, type Kysely } from 'kysely';

/**
 * Bulk calls (bulk call, bulk call summary): a job per Call Selected, one item per
 * selected contact, worked through on the server one call a second, so closing the tab neither loses nor repeats it.
 * Each item carries the request id its call is placed with: a retry after a crash finds the same call.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table bulk_call_jobs (id uuid primary key default gen_random_uuid(),
      user_id uuid not null references auth_users (id) on delete cascade,
      from_number text not null check (length(from_number) <= 41),
      status text not null default 'running' check (status in ('running', 'done', 'canceled')),
      total integer not null,
      next_at timestamptz not null default now(),
      created_at timestamptz not null default now(),
      finished_at timestamptz
    );
    create index bulk_call_jobs_running_idx on bulk_call_jobs (next_at) where status = 'running';
    create index bulk_call_jobs_user_idx on bulk_call_jobs (user_id, created_at desc);

    create table bulk_call_items (job_id uuid not null references bulk_call_jobs (id) on delete cascade,
      position integer not null,
      user_id uuid not null,
      contact_id uuid references contacts (id) on delete set null,
      contact_name text not null check (length(contact_name) <= 250),
      request_id text not null check (request_id ~ '^[a-z0-9]{8}$'),
      state text not null default 'pending' check (state in ('pending', 'called', 'skipped', 'failed')),
      reason text check (length(reason) <= 2000),
      call_id uuid references calls (id) on delete set null,
      done_at timestamptz,
      primary key (job_id, position)
    );
  `.execute(db);

  for (const table of ['bulk_call_jobs', 'bulk_call_items']) {
    await sql`
      alter table ${sql.table(table)} enable row level security;
      alter table ${sql.table(table)} force row level security;
      create policy ${sql.id(`${table}_owner`)} on ${sql.table(table)}
        using (user_id = nullif(current_setting('app.user_id', true), '')::uuid)
        with check (user_id = nullif(current_setting('app.user_id', true), '')::uuid);
      -- The runner claims the next due job across users, as the system actor.
      create policy ${sql.id(`${table}_system`)} on ${sql.table(table)}
        using (current_setting('app.actor', true) = 'system');
    `.execute(db);
  }
  for (const [op, transition] of [
    ['insert', 'new'],
    ['update', 'new'],
    ['delete', 'old'],
  ] as const) {
    await sql`
      create trigger ${sql.id(`bulk_call_jobs_notify_${op}`)} after ${sql.raw(op)} on bulk_call_jobs
        referencing ${sql.raw(transition)} table as changed
        for each statement execute function notify_owned_changes('calls');
    `.execute(db);
  }
}
