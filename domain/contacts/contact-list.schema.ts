import { z } from 'zod';
import { ContactSchema, ContactStatusSchema } from './contact.schema.ts';

export const CONTACTS_PAGE_SIZE = 100;
export const SEARCH_DEBOUNCE_MS = 300;
/** Terms shorter than this match by prefix on indexed columns; longer ones anywhere (decision 000). */
export const SUBSTRING_SEARCH_MIN_LENGTH = 3;

export const ContactTabSchema = z.enum(['all', 'cold', 'attention', 'qualified']);
export type ContactTab = z.infer<typeof ContactTabSchema>;
export const CONTACT_TAB_LABELS: Record<ContactTab, string> = {
  all: 'All Contacts',
  cold: 'Cold Leads',
  attention: 'Needs Attention',
  qualified: 'Qualified Leads',
};

/** All, 7days, 30days, 90days, never. */
export const LastCalledFilterSchema = z.enum(['all', '7days', '30days', '90days', 'never']);
export type LastCalledFilter = z.infer<typeof LastCalledFilterSchema>;
export const LAST_CALLED_LABELS: Record<LastCalledFilter, string> = {
  all: 'All Contacts',
  '7days': 'Not Called in 7 Days',
  '30days': 'Not Called in 30 Days',
  '90days': 'Not Called in 90 Days',
  never: 'Never Called',
};
export const LAST_CALLED_DAYS: Partial<Record<LastCalledFilter, number>> = {
  '7days': 7,
  '30days': 30,
  '90days': 90,
};

export const ContactSortSchema = z.enum(['name', 'lastCallDate', 'createdAt']);
export type ContactSort = z.infer<typeof ContactSortSchema>;

const boolParam = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .transform((v) => v === true || v === 'true')
  .default(false);

/** The filters shared by the list, the counts, bulk actions on "all matching", and exports. */
export const ContactFilterSchema = z.object({
  search: z.string().trim().max(200).optional(),
  status: z.union([ContactStatusSchema, z.literal('all')]).default('all'),
  tag: z.string().trim().max(50).optional(),
  lastCalled: LastCalledFilterSchema.default('all'),
  coldOnly: boolParam,
});
export type ContactFilter = z.input<typeof ContactFilterSchema>;
export type ParsedContactFilter = z.output<typeof ContactFilterSchema>;

/** An opaque position in the list, made by the server from a row's sort key (keyset paging, decision 007). */
const CursorSchema = z.string().min(1).max(600);

/**
 * One page of the list. `page` is the number the screen shows. Which rows it holds comes, in order of preference,
 * from a neighbour's cursor (`after` the last row of the page before, `before` the first row of the page after),
 * from `fromEnd` (the last page: that many rows from the end), or else from the offset of `page`. The first three
 * cost the same on every page of a million contacts; the offset is meant for the first few pages.
 */
export const ListContactsQuerySchema = ContactFilterSchema.extend({
  tab: ContactTabSchema.default('all'),
  sort: ContactSortSchema.default('createdAt'),
  dir: z.enum(['asc', 'desc']).default('desc'),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  after: CursorSchema.optional(),
  before: CursorSchema.optional(),
  fromEnd: z.coerce.number().int().min(1).max(100).optional(),
}).refine((q) => [q.after, q.before, q.fromEnd].filter((v) => v !== undefined).length <= 1, {
  message: 'Use only one of after, before and fromEnd.',
  path: ['after'],
});
export type ListContactsQuery = z.input<typeof ListContactsQuerySchema>;
export type ParsedListContactsQuery = z.output<typeof ListContactsQuerySchema>;

export const ContactListItemSchema = ContactSchema.omit({
  notes: true,
  website: true,
  synced: true,
  lastSyncedAt: true,
});
export type ContactListItem = z.infer<typeof ContactListItemSchema>;

/** A page of rows with what the pager needs; the total comes from the tab counts, which never hold the rows up. */
export const ContactsPageSchema = z.object({
  contacts: z.array(ContactListItemSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  hasPrevious: z.boolean(),
  hasNext: z.boolean(),
  firstCursor: z.string().nullable(),
  lastCursor: z.string().nullable(),
});
export type ContactsPage = z.infer<typeof ContactsPageSchema>;

export const TabCountSchema = z.object({ count: z.number().int(), estimate: z.boolean() });
export const ContactCountsSchema = z.object({
  all: TabCountSchema,
  cold: TabCountSchema,
  attention: TabCountSchema,
  qualified: TabCountSchema,
});
export type ContactCounts = z.infer<typeof ContactCountsSchema>;

/** Clicking the same column toggles the direction; a new column starts ascending (sorting). */
export function nextSort(
  current: { sort: ContactSort; dir: 'asc' | 'desc' },
  clicked: ContactSort,
): { sort: ContactSort; dir: 'asc' | 'desc' } {
  if (current.sort === clicked) return { sort: clicked, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { sort: clicked, dir: 'asc' };
}

/** Whether any filter of the bar is active (the Clear Filters button shows only then). */
export function hasActiveFilter(f: {
  search?: string | undefined;
  status?: string;
  tag?: string | undefined;
  lastCalled?: string;
  coldOnly?: boolean;
}): boolean {
  return (
    Boolean(f.search?.trim()) ||
    (f.status ?? 'all') !== 'all' ||
    Boolean(f.tag) ||
    (f.lastCalled ?? 'all') !== 'all' ||
    f.coldOnly === true
  );
}

/**
 * Counting stops after this many rows; more than that is shown as the planner's estimate ('≈ 1.2M'), since an exact
 * count of a large set costs a scan of all of it (counts exact while cheap).
 */
export const EXACT_COUNT_LIMIT = 10_000;
/** When the planner expects more rows than this, the count is not even started: the estimate is the answer. */
export const ESTIMATE_ONLY_ABOVE = 100_000;

/** '≈ 1.2M' for estimates; exact counts in full. */
export function formatCount(c: { count: number; estimate: boolean }): string {
  if (!c.estimate) return c.count.toLocaleString('en-US');
  const n = c.count;
  const short =
    n >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)}M` : n >= 1_000 ? `${Math.round(n / 1_000)}K` : String(n);
  return `≈ ${short}`;
}

/** The numbered pages the pagination shows: first, last, and the neighbours of the current page. */
export function visiblePages(current: number, total: number): (number | 'gap')[] {
  if (total <= 7) return Array.from({ length: total }, (_, i) => i + 1);
  const pages = new Set([1, total, current - 1, current, current + 1].filter((p) => p >= 1 && p <= total));
  const sorted = [...pages].sort((a, b) => a - b);
  const out: (number | 'gap')[] = [];
  sorted.forEach((p, i) => {
    if (i > 0 && p - (sorted[i - 1] ?? p) > 1) out.push('gap');
    out.push(p);
  });
  return out;
}

/** Contacts looked up by id (the queue screens' preselection, the pop-out's update-contacts message). */
export const MAX_LOOKUP_IDS = 500;
export const ContactLookupSchema = z.object({
  ids: z.array(z.uuid('Invalid contact id')).min(1).max(MAX_LOOKUP_IDS),
});
export const ContactLookupResultSchema = z.object({ contacts: z.array(ContactListItemSchema) });
