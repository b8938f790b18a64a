import { sql, type Kysely } from 'kysely';

/**
 * Reports and the Profile tab:
 * - user_profiles.time_zone: the IANA zone the user chose in Settings → Profile (null: the browser's), which draws
 *   the day of the reports and the hour of a callback.
 * - The Qualified Leads tab reads a user's qualified dispositions newest first and searches their notes: a partial
 *   index in that order, and a trigram index over the notes of qualified dispositions only, keep both fast for a
 *   user with a million dispositions.
 * - calls.disposition: the latest disposition saved for the call, kept by a trigger, so a call's outcome
 *   (coalesce(disposition, status)) is a column and not a lookup per row: the outcomes chart counts 30 days of calls
 *   in one pass, and the Call Reports filter (contact id, notes, outcome) is served by one trigram index over
 *   calls.report_text, so a word almost no call has is found among a million calls without reading them all.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table user_profiles add column time_zone text check (length(time_zone) between 1 and 64);
    create index call_dispositions_qualified_idx on call_dispositions (user_id, called_at desc, id desc)
      where is_qualified;
    -- Searched through a stored lower-case copy: under row security PostgreSQL only uses an index for a condition
    -- whose functions are all leakproof, and lower() is not, so an index over lower(notes) would never be used.
    alter table call_dispositions add column notes_search text generated always as (lower(notes)) stored;
    create index call_dispositions_qualified_notes_idx on call_dispositions
      using gin (user_id, notes_search gin_trgm_ops) where is_qualified;

    alter table calls add column disposition text;
    update calls c set disposition = latest.disposition
    from (select distinct on (call_id) call_id, disposition from call_dispositions
          where call_id is not null order by call_id, created_at desc) latest
    where latest.call_id = c.id;

    create function latest_call_disposition(call uuid) returns text language sql stable as $$
      select disposition from call_dispositions where call_id = call order by created_at desc limit 1
    $$;
    create function keep_call_disposition() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        if new.call_id is not null then
          update calls set disposition = new.disposition where id = new.call_id;
        end if;
      else
        if old.call_id is not null then
          update calls set disposition = latest_call_disposition(old.call_id) where id = old.call_id;
        end if;
        if tg_op = 'UPDATE' and new.call_id is not null and new.call_id is distinct from old.call_id then
          update calls set disposition = latest_call_disposition(new.call_id) where id = new.call_id;
        end if;
      end if;
      return null;
    end $$;
    -- The outcomes chart reads (user, time, disposition) of a month of calls: from the index alone.
    drop index calls_user_started_idx;
    create index calls_user_started_idx on calls (user_id, started_at desc) include (disposition);

    create trigger call_dispositions_call_outcome
      after insert or update of disposition, call_id or delete on call_dispositions
      for each row execute function keep_call_disposition();

    -- What the Call Reports filter searches: contact id, notes, and the outcome in both spellings
    -- ("not-interested", "not interested"), separated so a word never spans two of them.
    create function call_report_text(contact uuid, notes text, outcome text) returns text
      language sql immutable parallel safe as $$
      select lower(coalesce(contact::text, '') || chr(31) || coalesce(notes, '') || chr(31) || outcome || chr(31)
        || replace(outcome, '-', ' '))
    $$;
    -- Stored, for the same reason as notes_search: a plain column's like is leakproof, an expression's is not.
    alter table calls add column report_text text
      generated always as (call_report_text(contact_id, notes, coalesce(disposition, status))) stored;
    create index calls_report_search_idx on calls using gin (user_id, report_text gin_trgm_ops);
  `.execute(db);
}
