import { sql, type Kysely } from 'kysely';

/**
 * The country a user's numbers are read in when written without a country code (Settings → Profile): a UK team's
 * '020 7946 0958' is +44 20 7946 0958, not an invalid US number. Existing users keep the US, as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table user_profiles add column phone_country text not null default 'US' check (phone_country ~ '^[A-Z]{2}$');
  `.execute(db);
}
