import { sql, type Kysely } from 'kysely';

/**
 * An abandoned call (decision 026) reads as "abandoned" in Call Reports, in its Outcome column, its filter and its
 * export, unless a disposition was saved for it: the search text is regenerated with that outcome.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table calls drop column report_text;
    alter table calls add column report_text text generated always as (call_report_text(contact_id, notes,
      coalesce(disposition, case when abandoned_at is not null then 'abandoned' else status end))) stored;
    create index calls_report_search_idx on calls using gin (user_id, report_text gin_trgm_ops);
  `.execute(db);
}
