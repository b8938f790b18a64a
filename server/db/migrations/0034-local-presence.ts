import { sql, type Kysely } from 'kysely';

/**
 * Local presence (decision 027): a user's calls go out from the caller ID nearest each contact unless they turn it
 * off (Settings → Phone); a bulk call started without a chosen caller ID does the same for each of its calls.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table user_profiles add column local_presence boolean not null default true;
    alter table bulk_call_jobs add column local_presence boolean not null default false;
  `.execute(db);
}
