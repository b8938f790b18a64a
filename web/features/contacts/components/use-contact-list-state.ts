import { useEffect, useRef, useState } from 'react';
import type { BulkSelection } from '#domain/contacts/bulk-selection.schema.ts';
import {
  nextSort,
  SEARCH_DEBOUNCE_MS,
  type ContactSort,
  type ContactTab,
} from '#domain/contacts/contact-list.schema.ts';
import type { PageRequest } from '#domain/contacts/contact-paging.ts';
import type { FilterState } from './contact-filter-bar.tsx';

export const NO_FILTERS: FilterState = { status: 'all', tag: '', lastCalled: 'all', coldOnly: false };

/**
 * What the contact list is showing and what is selected, apart from the data: the tab, the filters,
 * the search (typed, and committed after SEARCH_DEBOUNCE_MS or on Enter), the sort, the page asked for, and the
 * selection (ticked ids, or "all N matching"). Changing what is shown starts again at page 1 and clears the
 * selection, so a bulk action never acts on rows the person can no longer see.
 */
export function useContactListState() {
  const [tab, setTab] = useState<ContactTab>('all');
  const [filters, setFilters] = useState<FilterState>(NO_FILTERS);
  const [searchInput, setSearchInput] = useState('');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<{ sort: ContactSort; dir: 'asc' | 'desc' }>({
    sort: 'createdAt',
    dir: 'desc',
  });
  const [pageRequest, setPageRequest] = useState<PageRequest>({ page: 1 });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  const debounce = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(debounce.current), []);

  const filter = {
    search: search || undefined,
    status: filters.status,
    tag: filters.tag || undefined,
    lastCalled: filters.lastCalled,
    coldOnly: filters.coldOnly,
  };
  const selection: BulkSelection = allMatching ? { allMatching: { ...filter, tab } } : { ids: [...selected] };

  const clearSelection = () => {
    setSelected(new Set());
    setAllMatching(false);
  };
  const startOver = () => {
    setPageRequest({ page: 1 });
    clearSelection();
  };
  const commitSearch = (value: string) => {
    window.clearTimeout(debounce.current);
    setSearch(value.trim());
    startOver();
  };

  return {
    tab,
    filters,
    searchInput,
    search,
    sort,
    pageRequest,
    selected,
    allMatching,
    /** The filter the server applies (the list, the counts, "all matching"). */
    filter,
    /** The list request: the filter, the tab, the sort and the page. */
    listQuery: { ...filter, tab, sort: sort.sort, dir: sort.dir, ...pageRequest },
    selection,
    changeTab: (next: ContactTab) => {
      setTab(next);
      startOver();
    },
    /** Filter changes merge into the current filter. */
    changeFilters: (change: Partial<FilterState>) => {
      setFilters((f) => ({ ...f, ...change }));
      startOver();
    },
    typeSearch: (value: string) => {
      setSearchInput(value);
      window.clearTimeout(debounce.current);
      debounce.current = window.setTimeout(() => commitSearch(value), SEARCH_DEBOUNCE_MS);
    },
    submitSearch: () => commitSearch(searchInput),
    clearAll: () => {
      setSearchInput('');
      commitSearch('');
      setFilters(NO_FILTERS);
    },
    sortBy: (column: ContactSort) => {
      setSort((current) => nextSort(current, column));
      setPageRequest({ page: 1 });
    },
    goToPage: (request: PageRequest) => setPageRequest(request),
    /** Ticks or unticks one row; from "all matching", the rows on screen stay ticked but the rest are let go. */
    toggle: (id: string, rowsOnScreen: readonly string[]) => {
      const next = new Set(allMatching ? rowsOnScreen : selected);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      setAllMatching(false);
      setSelected(next);
    },
    togglePage: (checked: boolean, rowsOnScreen: readonly string[]) => {
      setAllMatching(false);
      setSelected(checked ? new Set(rowsOnScreen) : new Set());
    },
    selectAllMatching: () => setAllMatching(true),
    clearSelection,
    /** A contact deleted on its own leaves the selection. */
    forget: (id: string) => setSelected((current) => new Set([...current].filter((s) => s !== id))),
  };
}
