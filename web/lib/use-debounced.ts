import { useEffect, useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '#domain/contacts/contact-list.schema.ts';

/** A typed search, trimmed, once the person has stopped typing for SEARCH_DEBOUNCE_MS. */
export function useDebouncedSearch(value: string): string {
  const [debounced, setDebounced] = useState(value.trim());
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return debounced;
}
