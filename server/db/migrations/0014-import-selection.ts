import { sql, type Kysely } from 'kysely';

/**
 * The contacts an import created can be selected afterwards (decision 000 "Create-queue Import Contacts"):
 * an import records the moment its rows were stamped with and its last row number (each new contact's created_at
 * steps back a microsecond per row from that moment, batch-saver.ts), so its new contacts are found again by index,
 * without a list of ids.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table contact_imports add column rows_at timestamptz, add column last_row integer`.execute(
    db,
  );
}
