import { sql, type Kysely } from 'kysely';

const OWNED_TABLES = [
  'contacts',
  'contact_history',
  'call_dispositions',
  'power_dialer_queues',
  'queue_members',
];

/**
 * Row-level security that indexes can serve (docs/decisions/003-database-roles-and-rls.md):
 * - the owner check compares uuid to uuid (`user_id::text = …` could use no index);
 * - the search, prefix and tag operators are marked LEAKPROOF, so PostgreSQL may use the trigram, pattern and
 *   GIN indexes under row-level security instead of filtering every row of the user. They raise no error that
 *   depends on the row's data. Only a superuser may do this; on a server where the migrating role is not one,
 *   it is skipped and those searches fall back to scanning the user's rows (correct, slower).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of OWNED_TABLES) {
    await sql`
      drop policy ${sql.id(`${table}_owner`)} on ${sql.table(table)};
      create policy ${sql.id(`${table}_owner`)} on ${sql.table(table)}
        using (user_id = nullif(current_setting('app.user_id', true), '')::uuid)
        with check (user_id = nullif(current_setting('app.user_id', true), '')::uuid);
    `.execute(db);
  }
  // The list sorts by last call ascending with missing dates first and descending with them last (
  // a missing date counts as the earliest); one index in that order serves both directions.
  await sql`
    drop index contacts_user_last_call_idx;
    create index contacts_user_last_call_idx on contacts (user_id, last_call_at nulls first, id);
  `.execute(db);
  await sql`
    do $$
    begin
      if (select rolsuper from pg_roles where rolname = current_user) then
        alter function textlike(text, text) leakproof;
        alter function text_pattern_lt(text, text) leakproof;
        alter function text_pattern_le(text, text) leakproof;
        alter function text_pattern_ge(text, text) leakproof;
        alter function text_pattern_gt(text, text) leakproof;
        alter function arraycontains(anyarray, anyarray) leakproof;
      end if;
    end $$;
  `.execute(db);
}
