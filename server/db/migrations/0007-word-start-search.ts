import { sql, type Kysely } from 'kysely';

/**
 * Short search terms (1–2 characters) match at the start of a word (decision 000: prefix search on names, e-mail,
 * company and phone digits), served by the trigram index that already serves longer terms: pg_trgm indexes the
 * start of each word, so `search_text ~ '(^| )ma'` is an index lookup. The five prefix indexes that served it before
 * cost a fifth of every insert, which a million-row import cannot afford (bench/RESULTS.md); they go.
 * So does the status index of 0004: the status filter walks the list's own order fast enough (a quarter of the
 * rows match a status), and its one hot leaf made two parallel import savers wait on each other.
 * The regex operator is marked LEAKPROOF (as migration 0003 did for LIKE) so it may use the index under row-level
 * security: its errors depend on the pattern, never on a row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index contacts_first_name_prefix_idx;
    drop index contacts_last_name_prefix_idx;
    drop index contacts_email_prefix_idx;
    drop index contacts_company_prefix_idx;
    drop index contacts_phone_prefix_idx;
    drop index contacts_user_status_idx;
  `.execute(db);
  await sql`
    do $$
    begin
      if (select rolsuper from pg_roles where rolname = current_user) then
        alter function textregexeq(text, text) leakproof;
      end if;
    end $$;
  `.execute(db);
}
