import { sql, type Kysely } from 'kysely';

/**
 * Keyset paging for the contact list (docs/decisions/007-contact-list-paging.md).
 *
 * Sorting by last call counts a missing date as the earliest. A stored copy with the missing date
 * as -infinity gives one plain, non-null sort key, so "the page after this row" is a row comparison an index serves
 * directly. (An expression index on coalesce() cannot serve it under row-level security: PostgreSQL will not push a
 * COALESCE below the policy.) The last-called filters read the same column.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table contacts
      add column last_call_sort timestamptz not null
      generated always as (coalesce(last_call_at, '-infinity'::timestamptz)) stored;
    create index contacts_user_last_call_sort_idx on contacts (user_id, last_call_sort, id);
    drop index contacts_user_last_call_idx;
  `.execute(db);
}
