import { sql, type SelectQueryBuilder } from 'kysely';
import {
  LAST_CALLED_DAYS,
  SUBSTRING_SEARCH_MIN_LENGTH,
  type ContactTab,
  type ParsedContactFilter,
} from '#domain/contacts/contact-list.schema.ts';
import type { Database } from '../../db/schema.ts';

type ContactsQuery<O> = SelectQueryBuilder<Database, 'contacts', O>;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The one translation of the list's tab and filters into SQL, shared by the list, the counts,
 * bulk actions on "all matching" and exports. Every branch is served by an index of migration 0002.
 */
export function applyContactFilters<O>(
  query: ContactsQuery<O>,
  userId: string,
  filter: ParsedContactFilter,
  tab: ContactTab,
  now: Date,
): ContactsQuery<O> {
  let q = query.where('contacts.user_id', '=', userId);
  if (tab === 'cold' || filter.coldOnly) q = q.where('is_cold_lead', '=', true);
  if (tab === 'attention') q = q.where('needs_attention', '=', true);
  if (tab === 'qualified') q = q.where('is_qualified', '=', true);
  if (filter.status !== 'all') q = q.where('status', '=', filter.status);
  if (filter.tag) q = q.where(sql<boolean>`tags @> array[${filter.tag}]::text[]`);
  // last_call_sort is the last call with "never" as -infinity (migration 0005).
  if (filter.lastCalled === 'never') q = q.where(sql<boolean>`last_call_sort = '-infinity'::timestamptz`);
  const days = LAST_CALLED_DAYS[filter.lastCalled];
  if (days !== undefined) {
    // "Not called in N days": contacts never called pass too (last-call filter).
    const cutoff = new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
    q = q.where('last_call_sort', '<', cutoff);
  }
  const term = filter.search?.trim().toLowerCase();
  if (term) q = q.where(searchCondition(term));
  return q;
}

/**
 * Short terms match at the start of a word (names, e-mail, company, phone digits); 3+ characters match anywhere
 * (decision 000). A term made only of digits and phone punctuation, such as "(555) 01" or "555-0199", is searched by
 * its digits, which is how search_text holds a phone (migration 0008). Both kinds are served by the trigram index.
 */
function searchCondition(raw: string) {
  const term = isPhoneLike(raw) ? raw.replace(/\D/g, '') : raw;
  if (term.length >= SUBSTRING_SEARCH_MIN_LENGTH) {
    return sql<boolean>`search_text like ${`%${escapeLike(term)}%`}`;
  }
  return sql<boolean>`search_text ~ ${`(^| )${escapeRegex(term)}`}`;
}

const isPhoneLike = (term: string) => /\d/.test(term) && /^[\d\s().+-]+$/.test(term);
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\-]/g, (c) => `\\${c}`);
