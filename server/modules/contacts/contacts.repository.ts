import { sql, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { ContactDiff } from '#domain/contacts/contact-history.ts';
import type { Contact, ContactStatus, HistoryEntry } from '#domain/contacts/contact.schema.ts';
import { normalizePhone } from '#domain/contacts/phone.ts';
import {
  CONTACTS_PAGE_SIZE,
  ESTIMATE_ONLY_ABOVE,
  EXACT_COUNT_LIMIT,
  type ContactListItem,
  type ContactTab,
  type ParsedContactFilter,
  type ParsedListContactsQuery,
} from '#domain/contacts/contact-list.schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import type { ContactsTable, Database } from '../../db/schema.ts';
import { withinTimeBudget } from '../../db/time-budget.ts';
import { inlineParameters } from '../../db/inline-parameters.ts';
import { AppError } from '../../errors/app-error.ts';
import { applyContactFilters } from './contact-filters.repository.ts';
import { decodeCursor, encodeCursor, SORT_COLUMN } from './contact-cursor.ts';

export const CONTACT_COLUMNS = [
  'id',
  'first_name',
  'last_name',
  'email',
  'phone',
  'phone_e164',
  'company',
  'website',
  'title',
  'notes',
  'status',
  'tags',
  'is_cold_lead',
  'synced',
  'last_synced_at',
  'created_at',
  'updated_at',
  'last_call_at',
  'needs_attention',
  'is_qualified',
] as const;
const LIST_COLUMNS = CONTACT_COLUMNS.filter(
  (c) => !['notes', 'website', 'synced', 'last_synced_at'].includes(c),
);

type ContactRow = Pick<Selectable<ContactsTable>, (typeof CONTACT_COLUMNS)[number]>;

export function toContact(row: ContactRow): Contact {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phone: row.phone,
    phoneE164: row.phone_e164,
    company: row.company,
    website: row.website,
    title: row.title,
    notes: row.notes,
    status: row.status,
    tags: row.tags,
    isColdLead: row.is_cold_lead,
    synced: row.synced,
    lastSyncedAt: row.last_synced_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    lastCallDate: row.last_call_at?.toISOString() ?? null,
    needsAttention: row.needs_attention,
    isQualified: row.is_qualified,
  };
}

function toListItem(
  row: Omit<ContactRow, 'notes' | 'website' | 'synced' | 'last_synced_at'>,
): ContactListItem {
  const {
    notes: _n,
    website: _w,
    synced: _s,
    lastSyncedAt: _l,
    ...item
  } = toContact({
    ...row,
    notes: null,
    website: null,
    synced: true,
    last_synced_at: null,
  });
  return item;
}

export async function findContact(db: DbExecutor, userId: string, id: string): Promise<Contact | undefined> {
  const row = await db
    .selectFrom('contacts')
    .select(CONTACT_COLUMNS)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toContact(row) : undefined;
}

/** The user's contacts among these ids, in the order given; ids that are not theirs (or gone) are left out. */
export async function findContactsByIds(
  db: DbExecutor,
  userId: string,
  ids: readonly string[],
): Promise<Contact[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('contacts')
    .select(CONTACT_COLUMNS)
    .where('user_id', '=', userId)
    .where('id', 'in', [...ids])
    .execute();
  const byId = new Map(rows.map((r) => [r.id, toContact(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The user's contact, or NOT_FOUND 'Contact not found' (another user's contact is not found either). */
export async function getContact(db: DbExecutor, userId: string, id: string): Promise<Contact> {
  const contact = await findContact(db, userId, id);
  if (!contact) throw contactNotFound();
  return contact;
}

/** getContact, with the row locked until the transaction ends (an update reads, compares and writes it). */
export async function lockContact(db: DbExecutor, userId: string, id: string): Promise<Contact> {
  const row = await db
    .selectFrom('contacts')
    .select(CONTACT_COLUMNS)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw contactNotFound();
  return toContact(row);
}

export const contactNotFound = () => new AppError('NOT_FOUND', 'Contact not found');

export async function findHistory(db: DbExecutor, contactId: string): Promise<HistoryEntry[]> {
  const rows = await db
    .selectFrom('contact_history')
    .select(['id', 'changed_fields', 'previous_values', 'new_values', 'changed_at'])
    .where('contact_id', '=', contactId)
    .orderBy('changed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    changedFields: r.changed_fields,
    previousValues: r.previous_values,
    newValues: r.new_values,
    changedAt: r.changed_at.toISOString(),
  }));
}

export type ContactsPage = {
  contacts: ContactListItem[];
  hasPrevious: boolean;
  hasNext: boolean;
  firstCursor: string | null;
  lastCursor: string | null;
};

/**
 * One page of the list, sorted on the server (sorting: name case-insensitive, a missing last call
 * counts as the earliest; ties broken by id). A neighbour page is read from a cursor and the last page from the
 * far end, each an index seek of 101 rows wherever it lies in a million (decision 007); otherwise by offset.
 * One row more than a page is read to know whether the list goes on in the reading direction.
 */
export async function findContactsPage(
  db: DbExecutor,
  userId: string,
  query: ParsedListContactsQuery,
  now: Date,
): Promise<ContactsPage> {
  const column = SORT_COLUMN[query.sort];
  const seek = query.after ?? query.before;
  const backwards = query.before !== undefined || query.fromEnd !== undefined;
  const dir = backwards ? flip(query.dir) : query.dir;
  const size = query.fromEnd ?? CONTACTS_PAGE_SIZE;

  let q = applyContactFilters(
    db
      .selectFrom('contacts')
      .select(LIST_COLUMNS)
      .select(sql<string>`${sql.ref(column)}::text`.as('cursor_key')),
    userId,
    query,
    query.tab,
    now,
  );
  if (seek !== undefined) {
    const position = decodeCursor(seek, query.sort);
    const key = query.sort === 'name' ? sql`${position.key}` : sql`${position.key}::timestamptz`;
    q = q.where(
      sql<boolean>`(${sql.ref(column)}, id) ${sql.raw(dir === 'asc' ? '>' : '<')} (${key}, ${position.id}::uuid)`,
    );
  }
  q = q
    .orderBy(column, dir)
    .orderBy('id', dir)
    .limit(size + 1);
  const offset = seek === undefined && !backwards ? (query.page - 1) * CONTACTS_PAGE_SIZE : 0;
  if (offset > 0) q = q.offset(offset);

  const fetched = await q.execute();
  const more = fetched.length > size;
  const rows = fetched.slice(0, size);
  if (backwards) rows.reverse();
  const cursorOf = (row: (typeof rows)[number] | undefined) =>
    row ? encodeCursor({ sort: query.sort, key: row.cursor_key, id: row.id }) : null;
  return {
    contacts: rows.map(toListItem),
    hasPrevious: backwards ? more : seek !== undefined || offset > 0,
    hasNext: backwards ? query.before !== undefined : more,
    firstCursor: cursorOf(rows[0]),
    lastCursor: cursorOf(rows.at(-1)),
  };
}

const flip = (d: 'asc' | 'desc') => (d === 'asc' ? 'desc' : 'asc');

/**
 * How many contacts match: exact while counting is cheap, otherwise the planner's estimate, reported as such so
 * the screen can show '≈ 1.2M'. The estimate comes first (it costs a plan, not a scan); only a set it
 * expects to be modest is counted, and the count stops after EXACT_COUNT_LIMIT rows.
 */
export async function countContacts(
  db: DbExecutor,
  userId: string,
  filter: ParsedContactFilter,
  tab: ContactTab,
  now: Date,
): Promise<{ count: number; estimate: boolean }> {
  const compiled = applyContactFilters(
    db.selectFrom('contacts').select('id'),
    userId,
    filter,
    tab,
    now,
  ).compile();
  const plan = await sql<{
    'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }];
  }>`explain (format json) ${sql.raw(inlineParameters(compiled.sql, compiled.parameters))}`.execute(db);
  const planned = Math.round(plan.rows[0]?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0);
  if (planned > ESTIMATE_ONLY_ABOVE) return { count: planned, estimate: true };

  const capped = applyContactFilters(
    db.selectFrom('contacts').select(sql`1`.as('one')),
    userId,
    filter,
    tab,
    now,
  ).limit(EXACT_COUNT_LIMIT + 1);
  const n = await withinTimeBudget(db, COUNT_TIME_BUDGET_MS, async () => {
    const row = await db
      .selectFrom(capped.as('capped'))
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    return row.n;
  });
  if (n === undefined) return { count: planned, estimate: true };
  if (n <= EXACT_COUNT_LIMIT) return { count: n, estimate: false };
  return { count: Math.max(planned, n), estimate: true };
}

/** A count that takes longer than this is abandoned for the estimate: "exact while cheap". */
const COUNT_TIME_BUDGET_MS = 60;

export async function findTags(db: DbExecutor, userId: string): Promise<string[]> {
  const rows = await sql<{ tag: string }>`
    select distinct unnest(tags) as tag from contacts where user_id = ${userId} and tags <> '{}' order by 1 limit 500`.execute(
    db,
  );
  return rows.rows.map((r) => r.tag);
}

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
  return db
    .selectFrom('contacts')
    .select(['id', 'first_name', 'last_name', 'phone'])
    .where('user_id', '=', userId)
    .where('id', 'in', selectedIds(db, userId, selection, now))
    .orderBy('name_sort')
    .orderBy('id')
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

/** The editable fields of a contact, as the service hands them to the repository. */
export type ContactFields = {
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  company: string | null;
  website: string | null;
  title: string | null;
  notes: string | null;
  status: ContactStatus;
  tags: string[];
};

/** A new contact of the user, stored synced; its id. */
export async function insertContact(
  trx: DbExecutor,
  userId: string,
  fields: ContactFields & { isColdLead?: boolean },
  now: Date,
): Promise<string> {
  const inserted = await trx
    .insertInto('contacts')
    .values({
      user_id: userId,
      first_name: fields.firstName,
      last_name: fields.lastName,
      email: fields.email,
      phone: fields.phone,
      phone_e164: normalizePhone(fields.phone),
      company: fields.company,
      website: fields.website,
      title: fields.title,
      notes: fields.notes,
      status: fields.status,
      tags: fields.tags,
      is_cold_lead: fields.isColdLead ?? false,
      synced: true,
      last_synced_at: now,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** Writes the fields given (others untouched); the phone's normalised form follows the phone. */
export async function writeContactChanges(
  trx: DbExecutor,
  userId: string,
  id: string,
  changes: Partial<ContactFields>,
  now: Date,
): Promise<void> {
  await trx
    .updateTable('contacts')
    .set({
      ...(changes.firstName !== undefined && { first_name: changes.firstName }),
      ...(changes.lastName !== undefined && { last_name: changes.lastName }),
      ...(changes.email !== undefined && { email: changes.email }),
      ...(changes.phone !== undefined && { phone: changes.phone, phone_e164: normalizePhone(changes.phone) }),
      ...(changes.company !== undefined && { company: changes.company }),
      ...(changes.website !== undefined && { website: changes.website }),
      ...(changes.title !== undefined && { title: changes.title }),
      ...(changes.notes !== undefined && { notes: changes.notes }),
      ...(changes.status !== undefined && { status: changes.status }),
      ...(changes.tags !== undefined && { tags: changes.tags }),
      updated_at: now,
    })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .execute();
}

/** One history entry: the fields that changed, with their old and new values. */
export async function recordHistory(
  trx: DbExecutor,
  userId: string,
  id: string,
  diff: ContactDiff,
  now: Date,
): Promise<void> {
  await trx
    .insertInto('contact_history')
    .values({
      contact_id: id,
      user_id: userId,
      changed_fields: diff.changedFields,
      previous_values: JSON.stringify(diff.previousValues),
      new_values: JSON.stringify(diff.newValues),
      changed_at: now,
    })
    .execute();
}

/** Deletes the user's contact; whether there was one. */
export async function deleteContactRow(trx: DbExecutor, userId: string, id: string): Promise<boolean> {
  const result = await trx
    .deleteFrom('contacts')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Deletes the user's contacts among `ids` (a list, or the ids a filter matches); how many went. */
export async function deleteContacts(
  trx: DbExecutor,
  userId: string,
  ids: readonly string[] | ReturnType<typeof matchingIdsQuery>,
): Promise<number> {
  const list = Array.isArray(ids) ? (ids as readonly string[]) : null;
  const result = await trx
    .deleteFrom('contacts')
    .where('user_id', '=', userId)
    .where('id', 'in', list ? [...list] : (ids as ReturnType<typeof matchingIdsQuery>))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Whether the user has any contact at all (an import into an empty account has nothing to match against). */
export async function hasAnyContact(db: DbExecutor, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('contacts')
    .select('id')
    .where('user_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * The contacts a selection names, each with its ordinal, as a SQL source for an insert that keeps order: ticked ids
 * in the order given, a whole filter in name order (as the contact list sorts). Only the user's own contacts.
 */
export function orderedSelection(
  userId: string,
  contactIds: readonly string[] | SelectQueryBuilder<Database, 'contacts', { id: string }>,
) {
  return isIdList(contactIds)
    ? sql`select c.id, given.n as ordinal from unnest(${[...contactIds]}::uuid[]) with ordinality as given (id, n)
          join contacts c on c.id = given.id and c.user_id = ${userId}`
    : sql`select c.id, row_number() over (order by c.name_sort, c.id) as ordinal
          from contacts c where c.user_id = ${userId} and c.id in (${contactIds})`;
}

const isIdList = (
  ids: readonly string[] | SelectQueryBuilder<Database, 'contacts', { id: string }>,
): ids is readonly string[] => Array.isArray(ids);
