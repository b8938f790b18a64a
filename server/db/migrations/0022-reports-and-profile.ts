import { sql, type Kysely } from 'kysely';

/**
 * Reports and the Profile tab (issue 13):
 * - user_profiles.time_zone: the IANA zone the user chose in Settings → Profile (null: the browser's), which draws
 *   the day of the reports and the hour of a callback.
 * - The Qualified Leads tab reads a user's qualified dispositions newest first and searches their notes: a partial
 *   index in that order, and a trigram index over the notes of qualified dispositions only, keep both fast for a
 *   user with a million dispositions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table user_profiles add column time_zone text check (length(time_zone) between 1 and 64);
    create index call_dispositions_qualified_idx on call_dispositions (user_id, called_at desc, id desc)
      where is_qualified;
    create index call_dispositions_qualified_notes_idx on call_dispositions
      using gin (user_id, lower(notes) gin_trgm_ops) where is_qualified;
  `.execute(db);
}
