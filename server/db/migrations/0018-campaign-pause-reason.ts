import { sql, type Kysely } from 'kysely';

/**
 * A campaign whose mail server fails (unreachable, login refused, no secure connection) pauses itself with the
 * server's words instead of failing every remaining recipient one by one (docs/decisions/017-email-campaigns.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table email_campaigns add column pause_reason text check (length(pause_reason) <= 1000)`.execute(
    db,
  );
}
