import { Search, X } from 'lucide-react';
import { z } from 'zod';
import {
  CONTACT_STATUSES,
  ContactStatusSchema,
  type ContactStatus,
} from '#domain/contacts/contact.schema.ts';
import {
  LAST_CALLED_LABELS,
  LastCalledFilterSchema,
  type LastCalledFilter,
} from '#domain/contacts/contact-list.schema.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';

export type FilterState = {
  status: ContactStatus | 'all';
  tag: string;
  lastCalled: LastCalledFilter;
  coldOnly: boolean;
};
const StatusFilterSchema = ContactStatusSchema.or(z.literal('all'));

/** The filter bar of: search with submit, Cold Leads Only, status, tag, last called, Clear Filters. */
export function ContactFilterBar(props: {
  searchInput: string;
  onSearchInput: (value: string) => void;
  onSearchSubmit: () => void;
  filters: FilterState;
  onChange: (change: Partial<FilterState>) => void;
  tags: string[];
  showClear: boolean;
  onClear: () => void;
}) {
  const { filters, onChange } = props;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <form
        role="search"
        className="flex min-w-60 flex-1 gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          props.onSearchSubmit();
        }}
      >
        <Input
          aria-label="Search contacts"
          placeholder="Search contacts..."
          value={props.searchInput}
          onChange={(e) => props.onSearchInput(e.target.value)}
        />
        <Button type="submit" variant="outline" size="icon" aria-label="Search">
          <Search />
        </Button>
      </form>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          className="size-4 accent-primary"
          checked={filters.coldOnly}
          onChange={(e) => onChange({ coldOnly: e.target.checked })}
        />
        Cold Leads Only
      </label>
      <NativeSelect
        aria-label="Status"
        value={filters.status}
        onChange={(e) => onChange({ status: StatusFilterSchema.parse(e.target.value) })}
      >
        <option value="all">All statuses</option>
        {CONTACT_STATUSES.map((s) => (
          <option key={s} value={s}>
            {s[0]!.toUpperCase() + s.slice(1)}
          </option>
        ))}
      </NativeSelect>
      {props.tags.length > 0 && (
        <NativeSelect
          aria-label="Tag"
          value={filters.tag}
          onChange={(e) => onChange({ tag: e.target.value })}
        >
          <option value="">All tags</option>
          {props.tags.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </NativeSelect>
      )}
      <NativeSelect
        aria-label="Last called"
        value={filters.lastCalled}
        onChange={(e) => onChange({ lastCalled: LastCalledFilterSchema.parse(e.target.value) })}
      >
        {LastCalledFilterSchema.options.map((v) => (
          <option key={v} value={v}>
            {LAST_CALLED_LABELS[v]}
          </option>
        ))}
      </NativeSelect>
      {props.showClear && (
        <Button variant="ghost" size="sm" onClick={props.onClear}>
          <X /> Clear Filters
        </Button>
      )}
    </div>
  );
}
