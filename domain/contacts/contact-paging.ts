import { CONTACTS_PAGE_SIZE } from './contact-list.schema.ts';

export type PageCount = { count: number; estimate: boolean };
/** What the screen knows about the page it shows. */
export type ShownPage = {
  page: number;
  hasNext: boolean;
  firstCursor: string | null;
  lastCursor: string | null;
};
/** How to ask the server for a page (see ListContactsQuerySchema). */
export type PageRequest = { page: number; after?: string; before?: string; fromEnd?: number };

/**
 * How many pages the pager offers. The count says how many (it may be an estimate); what the server found wins
 * over it: with no next page, this one is the last, and with one, there is at least one more.
 */
export function pageTotal(count: PageCount | undefined, shown: Pick<ShownPage, 'page' | 'hasNext'>): number {
  if (!shown.hasNext) return shown.page;
  const counted = count ? Math.ceil(count.count / CONTACTS_PAGE_SIZE) : 0;
  return Math.max(counted, shown.page + 1);
}

/**
 * The request for a page the pager offers (first, last, and the neighbours of the current one; all pages when
 * there are few). Neighbours go by cursor and the last page by its size from the end, so each costs the same at a
 * million contacts as on page 1; only the first few pages of a short list fall back to an offset (decision 007).
 */
export function requestForPage(
  target: number,
  current: ShownPage,
  pages: number,
  count: PageCount | undefined,
): PageRequest {
  if (target <= 1) return { page: 1 };
  if (target === current.page + 1 && current.lastCursor) return { page: target, after: current.lastCursor };
  if (target === current.page - 1 && current.firstCursor)
    return { page: target, before: current.firstCursor };
  if (target === pages) {
    const exactRest = count && !count.estimate ? count.count - (pages - 1) * CONTACTS_PAGE_SIZE : 0;
    const size = exactRest >= 1 && exactRest <= CONTACTS_PAGE_SIZE ? exactRest : CONTACTS_PAGE_SIZE;
    return { page: target, fromEnd: size };
  }
  return { page: target };
}
