import { sql, type Kysely } from 'kysely';

/**
 * The delivery log keeps 30 days (decision 035, "Retention"): an index of the deliveries that are done with (delivered
 * or given up) by their event time, so the hourly deletion finds the old ones without reading the whole log. A
 * delivery enters it when it stops being pending; its capture (in the event's own transaction) writes nothing more.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index webhook_deliveries_settled on webhook_deliveries (event_at) where status <> 'pending';
  `.execute(db);
}
