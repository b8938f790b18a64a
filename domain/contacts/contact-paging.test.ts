import { describe, expect, it } from 'vitest';
import { pageTotal, requestForPage, type ShownPage } from './contact-paging.ts';

const shown = (page: number, hasNext = true): ShownPage => ({
  page,
  hasNext,
  firstCursor: `first-${page}`,
  lastCursor: `last-${page}`,
});

describe('pageTotal', () => {
  it('follows an exact count', () => {
    expect(pageTotal({ count: 230, estimate: false }, shown(1))).toBe(3);
    expect(pageTotal({ count: 200, estimate: false }, shown(1))).toBe(2);
  });

  it('ends where the server found no next page, whatever an estimate said', () => {
    expect(pageTotal({ count: 1_200_000, estimate: true }, shown(5, false))).toBe(5);
    expect(pageTotal({ count: 0, estimate: false }, shown(1, false))).toBe(1);
  });

  it('offers at least one more page while the server has one, before the count arrives or past an estimate', () => {
    expect(pageTotal(undefined, shown(1))).toBe(2);
    expect(pageTotal({ count: 500, estimate: true }, shown(7))).toBe(8);
  });
});

describe('requestForPage', () => {
  const exact = { count: 230, estimate: false };

  it('asks for page 1 plainly', () => {
    expect(requestForPage(1, shown(3), 3, exact)).toEqual({ page: 1 });
  });

  it('asks for neighbours by cursor', () => {
    expect(requestForPage(4, shown(3), 10, exact)).toEqual({ page: 4, after: 'last-3' });
    expect(requestForPage(2, shown(3), 10, exact)).toEqual({ page: 2, before: 'first-3' });
  });

  it('asks for the last page from the end, with its exact size when the count is exact', () => {
    expect(requestForPage(3, shown(1), 3, exact)).toEqual({ page: 3, fromEnd: 30 });
    // The last page that is also the next one goes by cursor.
    expect(requestForPage(2, shown(1), 2, { count: 200, estimate: false })).toEqual({
      page: 2,
      after: 'last-1',
    });
    expect(requestForPage(12000, shown(1), 12000, { count: 1_200_000, estimate: true })).toEqual({
      page: 12000,
      fromEnd: 100,
    });
  });

  it('falls back to the offset for other pages of a short list', () => {
    expect(requestForPage(5, shown(2), 7, { count: 650, estimate: false })).toEqual({ page: 5 });
  });

  it('falls back to the offset for a neighbour when the current page has no rows to hold a cursor', () => {
    const empty: ShownPage = { page: 2, hasNext: false, firstCursor: null, lastCursor: null };
    expect(requestForPage(3, empty, 7, { count: 650, estimate: false })).toEqual({ page: 3 });
  });
});
