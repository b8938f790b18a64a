import { sql, type Kysely } from 'kysely';

/**
 * A contact whose local time nobody knows (no zone from the number, none set on the contact) is not called or texted
 * unless the user says so (Settings → Phone): a call at an hour the law forbids costs $500–1,500, a call not made
 * costs nothing. Users who saved their choice keep it; everyone else now gets 'block' (decision 024).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table consent_settings alter column unknown_local_time set default 'block'`.execute(db);
}
