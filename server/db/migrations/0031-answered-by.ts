import { sql, type Kysely } from 'kysely';

/**
 * Answering-machine detection (decision 025): who answered a call, as the provider's detection reports it after
 * the answer; null until it does (and for calls placed before detection existed).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table calls add column answered_by text check (answered_by in ('human', 'machine', 'fax', 'unknown'));
  `.execute(db);
}
