import { sql, type SelectQueryBuilder } from 'kysely';
import type { ContactTab, ParsedContactFilter } from '#domain/contacts/contact-list.schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { applyContactFilters } from './contact-filters.repository.ts';

/** Ids of the contacts matching a filter (bulk actions on "all matching"), capped. */
export function matchingIdsQuery(
  db: DbExecutor,
  userId: string,
  filter: ParsedContactFilter,
  tab: ContactTab,
  now: Date,
) {
  return applyContactFilters(db.selectFrom('contacts').select('contacts.id'), userId, filter, tab, now);
}

/**
 * The contacts a bulk selection names: its ticked ids as they are, or the query for every contact matching its
 * filter and tab (resolved by the statement that uses it, so a million ids never travel).
 */
export function selectedIds(
  db: DbExecutor,
  userId: string,
  selection:
    { ids: string[] } | { allMatching: ParsedContactFilter & { tab?: ContactTab } } | { importId: string },
  now: Date,
): string[] | ReturnType<typeof matchingIdsQuery> {
  if ('ids' in selection) return selection.ids;
  if ('importId' in selection) return importedIdsQuery(db, userId, selection.importId);
  return matchingIdsQuery(db, userId, selection.allMatching, selection.allMatching.tab ?? 'all', now);
}

/** The selected contacts with their names and phones, in name order, at most `limit` (a bulk call's list). */
export function findSelectedContacts(
  db: DbExecutor,
  userId: string,
  selection: Parameters<typeof selectedIds>[2],
  now: Date,
  limit: number,
) {
  const ids = selectedIds(db, userId, selection, now);
  // A filter is read as it is, not matched back to the table (orderedSelection says why).
  const selected = Array.isArray(ids)
    ? db.selectFrom('contacts').select('contacts.id').where('contacts.id', 'in', ids)
    : ids;
  return selected
    .select(['contacts.first_name', 'contacts.last_name', 'contacts.phone'])
    .where('contacts.user_id', '=', userId)
    .orderBy('contacts.name_sort')
    .orderBy('contacts.id')
    .limit(limit)
    .execute();
}

/**
 * The contacts an import of the user created: their created_at is the import's stamp minus a microsecond per row
 * (contact-batch.repository.ts), so they are one index range of the user's contacts. Another user's import names none.
 */
function importedIdsQuery(db: DbExecutor, userId: string, importId: string) {
  const stamp = sql<Date>`(select rows_at from contact_imports where id = ${importId} and user_id = ${userId})`;
  const first = sql<Date>`(select rows_at - make_interval(secs => coalesce(last_row, 0) / 1000000.0)
    from contact_imports where id = ${importId} and user_id = ${userId})`;
  return db
    .selectFrom('contacts')
    .select('contacts.id')
    .where('contacts.user_id', '=', userId)
    .where('contacts.synced', '=', true)
    .where('contacts.created_at', '<=', stamp)
    .where('contacts.created_at', '>=', first);
}

/**
 * The contacts a selection names, each with its ordinal, as a SQL source for an insert that keeps order: ticked ids
 * in the order given, a whole filter in name order (as the contact list sorts). Only the user's own contacts.
 * A filter's contacts are read in one pass, never matched back to the table: while the statistics think the user has
 * next to no contacts (they were all added since PostgreSQL last sampled the table), a `c.id in (filter)` plan read
 * every one of the user's contacts once per contact (20,000 contacts: 155 s).
 */
export function orderedSelection(
  userId: string,
  contactIds: readonly string[] | SelectQueryBuilder<Database, 'contacts', { id: string }>,
) {
  return isIdList(contactIds)
    ? sql`select c.id, given.n as ordinal from unnest(${[...contactIds]}::uuid[]) with ordinality as given (id, n)
          join contacts c on c.id = given.id and c.user_id = ${userId}`
    : sql`select m.id, row_number() over (order by m.name_sort, m.id) as ordinal
          from (${contactIds.select(['contacts.name_sort', 'contacts.user_id'])}) m where m.user_id = ${userId}`;
}

const isIdList = (
  ids: readonly string[] | SelectQueryBuilder<Database, 'contacts', { id: string }>,
): ids is readonly string[] => Array.isArray(ids);
