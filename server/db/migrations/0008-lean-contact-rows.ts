import { sql, type Kysely } from 'kysely';

/**
 * Every column, index and check on a contact is paid again by each row of a million-row import (
 * docs/decisions/008-bulk-import-and-export.md), so the contact row carries only what a screen or a lookup uses:
 * - email_key, lower(email) stored: imports match existing contacts on it. An index on the lower() expression
 *   would be of no use under row-level security: PostgreSQL will not evaluate a function not marked leakproof
 *   ahead of the policy, so it scanned every row instead.
 * - search_text without the phone as typed: its digits serve every phone search (a term made of digits and phone
 *   punctuation is searched by its digits), and the formatted copy only added trigrams to index.
 * - phone_digits goes: nothing reads it since migration 0007.
 * - queue_members.user_id keeps its row-security role but loses its foreign key: the queue's own key already ties a
 *   membership to its owner, and the check cost one lookup per queued contact.
 * One ALTER TABLE, so the table is rewritten once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table contacts
      drop column phone_digits,
      drop column search_text,
      add column search_text text not null generated always as (lower(first_name || ' ' || last_name || ' ' || email || ' ' || coalesce(company, '') || ' '
        || regexp_replace(coalesce(phone, ''), '\\D', '', 'g')
      )) stored,
      add column email_key text not null generated always as (lower(email)) stored;
    create index contacts_search_idx on contacts using gin (user_id, search_text gin_trgm_ops);
    create index contacts_user_email_idx on contacts (user_id, email_key) where email <> '';
    alter table queue_members drop constraint queue_members_user_id_fkey;
  `.execute(db);
}
