import { sql } from 'kysely';
import {
  CONTACTS_PAGE_SIZE,
  ESTIMATE_ONLY_ABOVE,
  EXACT_COUNT_LIMIT,
  type ContactListItem,
  ContactTabSchema,
  type ContactTab,
  type ParsedContactFilter,
  type ParsedListContactsQuery,
} from '#domain/contacts/contact-list.schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import { withinTimeBudget } from '../../db/time-budget.ts';
import { inlineParameters } from '../../db/inline-parameters.ts';
import { applyContactFilters } from './contact-filters.repository.ts';
import { decodeCursor, encodeCursor, SORT_COLUMN } from './contact-cursor.ts';
import { LIST_COLUMNS, toContact, type ContactRow } from './contacts.repository.ts';

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

type TabCount = { count: number; estimate: boolean };
type PlanNode = { 'Node Type': string; 'Plan Rows': number; 'Subplan Name'?: string; Plans?: PlanNode[] };

/**
 * How many contacts each tab holds under the filters: exact while counting is cheap, otherwise the planner's
 * estimate, reported as such so the screen can show '≈ 1.2M'. The estimates come first (they cost a plan, not a
 * scan); only the tabs expected to be modest are counted, each count stopping after EXACT_COUNT_LIMIT rows.
 *
 * The four tabs take two statements on one connection: one plan for all the estimates, one statement counting the
 * modest tabs under one time budget. On a busy server each round trip to the database waits its turn, so a count
 * per tab (six round trips each) made the tab counts the slowest read of a sales floor (decision 044).
 */
export async function countContactTabs(
  db: DbExecutor,
  userId: string,
  filter: ParsedContactFilter,
  now: Date,
): Promise<Record<ContactTab, TabCount>> {
  const tabs = ContactTabSchema.options;
  const countOne = new Map(
    tabs.map((tab) => {
      const capped = applyContactFilters(
        db.selectFrom('contacts').select(sql`1`.as('one')),
        userId,
        filter,
        tab,
        now,
      ).limit(EXACT_COUNT_LIMIT + 1);
      return [tab, sql`(select count(*)::int from (${capped}) as capped) as ${sql.ref(tab)}`];
    }),
  );
  const counting = (which: readonly ContactTab[]) =>
    sql<Record<ContactTab, number>>`select ${sql.join(which.map((tab) => countOne.get(tab)!))}`;
  const compiled = counting(tabs).compile(db);
  const plan = await sql<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>`explain (format json) ${sql.raw(
    inlineParameters(compiled.sql, compiled.parameters),
  )}`.execute(db);
  // Each tab is a subplan, in order; its estimate is that of the scan under the count and the limit.
  const subplans = (plan.rows[0]?.['QUERY PLAN'][0].Plan.Plans ?? []).filter((node) => node['Subplan Name']);
  const planned = new Map(
    tabs.map((tab, i) => {
      let node = subplans[i];
      while (node && (node['Node Type'] === 'Aggregate' || node['Node Type'] === 'Limit'))
        node = node.Plans?.[0];
      return [tab, Math.round(node?.['Plan Rows'] ?? 0)];
    }),
  );
  const modest = tabs.filter((tab) => planned.get(tab)! <= ESTIMATE_ONLY_ABOVE);
  const counted = modest.length
    ? await withinTimeBudget(db, COUNT_TIME_BUDGET_MS * modest.length, async () => {
        const result = await counting(modest).execute(db);
        return result.rows[0];
      })
    : undefined;
  const countOf = (tab: ContactTab): TabCount => {
    const estimate = planned.get(tab)!;
    const n = counted?.[tab];
    if (n === undefined) return { count: estimate, estimate: true };
    if (n <= EXACT_COUNT_LIMIT) return { count: n, estimate: false };
    return { count: Math.max(estimate, n), estimate: true };
  };
  return {
    all: countOf('all'),
    cold: countOf('cold'),
    attention: countOf('attention'),
    qualified: countOf('qualified'),
  };
}

/** A tab whose count takes longer than this is given its estimate: "exact while cheap". */
const COUNT_TIME_BUDGET_MS = 60;

export async function findTags(db: DbExecutor, userId: string): Promise<string[]> {
  const rows = await sql<{ tag: string }>`
    select distinct unnest(tags) as tag from contacts where user_id = ${userId} and tags <> '{}' order by 1 limit 500`.execute(
    db,
  );
  return rows.rows.map((r) => r.tag);
}
