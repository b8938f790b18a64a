import { sql, type Kysely } from 'kysely';

/**
 * Projects (project; decision 000 "Projects have fields but no screen creates them"):
 * a user's projects with the spec's fields; a call queue may belong to one, and calls made from that queue carry the
 * project's id; queues and projects announce their changes live (no foreign key on calls: a deleted project's calls stay in the logs with the id they were made under).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table projects (id uuid primary key default gen_random_uuid(),
      user_id uuid not null references auth_users (id) on delete cascade,
      name text not null check (length(name) between 1 and 200),
      client text check (length(client) <= 200),
      status text not null default 'planning' check (status in ('active', 'planning', 'on-hold', 'completed')),
      deadline date,
      budget numeric(14, 2) check (budget >= 0),
      description text check (length(description) <= 5000),
      project_type text not null default 'calling' check (project_type in ('calling', 'email', 'sms')),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index projects_user_idx on projects (user_id, created_at desc);
    alter table projects enable row level security;
    alter table projects force row level security;
    create policy projects_owner on projects
      using (user_id::text = current_setting('app.user_id', true))
      with check (user_id::text = current_setting('app.user_id', true));

    alter table power_dialer_queues add column project_id uuid references projects (id) on delete set null;
    create index power_dialer_queues_project_idx on power_dialer_queues (project_id) where project_id is not null;
    alter table calls add column project_id uuid;
  `.execute(db);

  // Live updates: queues (their counts move with every completion) and projects announce changes.
  for (const [table, topic] of [
    ['power_dialer_queues', 'queues'],
    ['projects', 'projects'],
  ] as const) {
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
}
