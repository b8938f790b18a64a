import { sql, type Kysely } from 'kysely';

/**
 * Missed calls to return (decision 028): a missed incoming call stays on the user's list until they call the number
 * back or mark it done (`missed_cleared_at`); the list reads the user's recent missed calls through this index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table calls add column missed_cleared_at timestamptz;
    create index calls_missed_to_return_idx on calls (user_id, started_at desc)
      where direction = 'inbound' and status in ('no-answer', 'busy') and missed_cleared_at is null;
  `.execute(db);
}
