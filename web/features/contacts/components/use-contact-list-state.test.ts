// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_DEBOUNCE_MS } from '#domain/contacts/contact-list.schema.ts';
import { useContactListState } from './use-contact-list-state.ts';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const ROWS = ['a', 'b', 'c'];

function listState() {
  const { result } = renderHook(() => useContactListState());
  return result;
}

describe('the contact list state', () => {
  it('starts on All Contacts, page 1, newest first, nothing selected', () => {
    const state = listState();
    expect(state.current.listQuery).toMatchObject({ tab: 'all', page: 1, sort: 'createdAt', dir: 'desc' });
    expect(state.current.selection).toEqual({ ids: [] });
  });

  it('commits a typed search after the debounce, trimmed, back on page 1 with the selection cleared', () => {
    vi.useFakeTimers();
    const state = listState();
    act(() => state.current.goToPage({ page: 3, after: 'cursor' }));
    act(() => state.current.toggle('a', ROWS));
    act(() => state.current.typeSearch('  mary '));
    expect(state.current.listQuery.search).toBeUndefined();
    expect(state.current.searchInput).toBe('  mary ');
    act(() => {
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1);
    });
    expect(state.current.listQuery.search).toBeUndefined();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(state.current.listQuery).toMatchObject({ search: 'mary', page: 1 });
    expect(state.current.listQuery).not.toHaveProperty('after');
    expect(state.current.selection).toEqual({ ids: [] });
  });

  it('commits at once on Enter, and a later keystroke does not bring the old term back', () => {
    vi.useFakeTimers();
    const state = listState();
    act(() => state.current.typeSearch('jo'));
    act(() => state.current.submitSearch());
    expect(state.current.listQuery.search).toBe('jo');
    act(() => {
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS * 2);
    });
    expect(state.current.listQuery.search).toBe('jo');
  });

  it('merges filter changes, starts again at page 1 and lets the selection go; Clear resets everything', () => {
    const state = listState();
    act(() => state.current.changeFilters({ status: 'active' }));
    act(() => state.current.goToPage({ page: 2, after: 'x' }));
    act(() => state.current.togglePage(true, ROWS));
    act(() => state.current.changeFilters({ tag: 'vip' }));
    expect(state.current.filter).toMatchObject({ status: 'active', tag: 'vip' });
    expect(state.current.listQuery.page).toBe(1);
    expect(state.current.selection).toEqual({ ids: [] });

    act(() => state.current.clearAll());
    expect(state.current.filter).toEqual({
      search: undefined,
      status: 'all',
      tag: undefined,
      lastCalled: 'all',
      coldOnly: false,
    });
  });

  it('selects ticked rows, a whole page, or everything matching the filter and tab', () => {
    const state = listState();
    act(() => state.current.toggle('b', ROWS));
    act(() => state.current.toggle('c', ROWS));
    act(() => state.current.toggle('b', ROWS));
    expect(state.current.selection).toEqual({ ids: ['c'] });

    act(() => state.current.togglePage(true, ROWS));
    expect(state.current.selection).toEqual({ ids: ROWS });

    act(() => state.current.changeTab('cold'));
    act(() => state.current.changeFilters({ tag: 'vip' }));
    act(() => state.current.selectAllMatching());
    expect(state.current.selection).toEqual({
      allMatching: {
        search: undefined,
        status: 'all',
        tag: 'vip',
        lastCalled: 'all',
        coldOnly: false,
        tab: 'cold',
      },
    });

    // Unticking one row of "all matching" keeps the other rows on screen, not every match.
    act(() => state.current.toggle('a', ROWS));
    expect(state.current.selection).toEqual({ ids: ['b', 'c'] });
    act(() => state.current.forget('b'));
    expect(state.current.selection).toEqual({ ids: ['c'] });
  });

  it('sorting turns the column around on a second click and goes back to page 1', () => {
    const state = listState();
    act(() => state.current.goToPage({ page: 4, after: 'x' }));
    act(() => state.current.sortBy('name'));
    expect(state.current.listQuery).toMatchObject({ sort: 'name', page: 1 });
    const firstDir = state.current.listQuery.dir;
    act(() => state.current.sortBy('name'));
    expect(state.current.listQuery.dir).not.toBe(firstDir);
  });
});
