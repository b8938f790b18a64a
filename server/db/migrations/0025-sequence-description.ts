import { sql, type Kysely } from 'kysely';

/** A sequence says what it is for (its description, shown on its page and editable while a draft). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table email_campaigns add column description text check (length(description) <= 2000);
  `.execute(db);
}
