import { sql, type Kysely } from 'kysely';

/**
 * Parallel dialing (docs/decisions/026-parallel-dialing-pacing.md): a queue is walked in power mode (one line) or
 * parallel mode, with an abandonment cap it may set lower than the law's 3 %. A round is the lines rung at once for
 * one rep; its connected call is decided once (the first person who answers). Each call of a round keeps its line's
 * state and the walker hold it was placed under; an abandoned call keeps when it was abandoned (not called again for
 * 72 hours, read through a small partial index).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table power_dialer_queues
      add column dial_mode text not null default 'power' check (dial_mode in ('power', 'parallel')),
      add column abandon_cap_percent numeric(2, 1) check (abandon_cap_percent > 0 and abandon_cap_percent <= 3);

    create table dial_rounds (id uuid primary key default gen_random_uuid(),
      user_id uuid not null references auth_users (id) on delete cascade,
      queue_id uuid not null references power_dialer_queues (id) on delete cascade,
      walker text not null check (length(walker) between 1 and 100),
      lines int not null check (lines between 1 and 5),
      why text not null,
      connected_call_id uuid,
      created_at timestamptz not null,
      settled_at timestamptz
    );
    create index dial_rounds_queue_idx on dial_rounds (queue_id, created_at desc);
    alter table dial_rounds enable row level security;
    alter table dial_rounds force row level security;
    create policy dial_rounds_owner on dial_rounds
      using (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system')
      with check (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system');

    alter table calls
      add column round_id uuid references dial_rounds (id) on delete set null,
      add column line_walker text,
      add column line_no smallint,
      add column line_state text check (line_state in
        ('ringing', 'answered', 'connected', 'released', 'abandoned', 'machine', 'ended')),
      add column abandoned_at timestamptz;
    create index calls_round_idx on calls (round_id) where round_id is not null;
    create index calls_abandoned_idx on calls (user_id, abandoned_at) where abandoned_at is not null;
    create index calls_queue_started_idx on calls (queue_id, started_at desc) where queue_id is not null;
  `.execute(db);
}
