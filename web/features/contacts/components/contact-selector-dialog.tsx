import { useState } from 'react';
import { toast } from 'sonner';
import type { BulkSelection } from '#domain/contacts/bulk-selection.schema.ts';
import { MAX_SELECTED_IDS } from '#domain/contacts/bulk-selection.schema.ts';
import { formatPhoneForDisplay } from '#domain/contacts/phone.ts';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { ShowMoreItem } from '../../../components/ui/show-more-item.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useDebouncedSearch } from '../../../lib/use-debounced.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useContactCounts, useContactPicker } from '../api/contacts-queries.ts';

export type PickedContact = { id: string; name: string; phone: string | null; company: string | null };

/**
 * What was chosen: these contacts, every contact matching a search (a million is one action), or the contacts an
 * import just created (decision 000 "Create-queue Import Contacts").
 */
export type ContactSelection =
  | { kind: 'ids'; contacts: PickedContact[] }
  | { kind: 'all'; search: string; count: number; estimate: boolean }
  | { kind: 'import'; importId: string; fileName: string; count: number };

export const selectionSize = (s: ContactSelection | null) =>
  !s ? 0 : s.kind === 'ids' ? s.contacts.length : s.count;

/** The selection as the server's bulk actions take it. */
export const toBulkSelection = (s: ContactSelection): BulkSelection =>
  s.kind === 'ids'
    ? { ids: s.contacts.map((c) => c.id) }
    : s.kind === 'import'
      ? { importId: s.importId }
      : { allMatching: s.search ? { search: s.search } : {} };

/**
 * The contact selector: the user's synced contacts with a search, select-all of everything that
 * matches (not only what is loaded), a 400px list, and a confirm that says 'Contacts selected' or 'No contacts
 * selected'. Used by the queue screens, the pop-out dialer and, later, campaigns.
 */
export function ContactSelectorDialog({
  open,
  onOpenChange,
  initial,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  initial: ContactSelection | null;
  onConfirm: (selection: ContactSelection) => void;
}) {
  const [search, setSearch] = useState(initial?.kind === 'all' ? initial.search : '');
  const term = useDebouncedSearch(search);
  const [picked, setPicked] = useState(
    () => new Map((initial?.kind === 'ids' ? initial.contacts : []).map((c) => [c.id, c])),
  );
  const [all, setAll] = useState(initial?.kind === 'all');
  const list = useContactPicker(term, open);
  const counts = useContactCounts({
    search: term || undefined,
    status: 'all',
    lastCalled: 'all',
    coldOnly: false,
  });
  // The count is of the search as typed only once the debounce and the count have caught up with it.
  const settled = term === search.trim() && !counts.isPlaceholderData && !counts.isFetching;
  const matching = settled ? counts.data?.all : undefined;
  const rows = list.data?.pages.flatMap((p) => p.contacts) ?? [];
  const signedOut = list.error instanceof ApiError && list.error.status === 401;

  const toggle = (contact: PickedContact) =>
    setPicked((current) => {
      const next = new Map(current);
      if (next.has(contact.id)) next.delete(contact.id);
      else next.set(contact.id, contact);
      return next;
    });

  const confirm = () => {
    if (all && matching && matching.count > 0) {
      onConfirm({ kind: 'all', search: term, count: matching.count, estimate: matching.estimate });
      toast.success('Contacts selected', {
        description: `All ${matching.estimate ? 'about ' : ''}${matching.count.toLocaleString()} contacts${term ? ` matching “${term}”` : ''}.`,
      });
      return onOpenChange(false);
    }
    if (picked.size === 0 || all)
      return void toast.error('No contacts selected', { description: 'Please select at least one contact' });
    if (picked.size > MAX_SELECTED_IDS)
      return void toast.error('Too many contacts ticked', {
        description: `Tick at most ${MAX_SELECTED_IDS.toLocaleString()}, or use Select all.`,
      });
    onConfirm({ kind: 'ids', contacts: [...picked.values()] });
    toast.success('Contacts selected', { description: `${picked.size.toLocaleString()} contact(s).` });
    onOpenChange(false);
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>Select Contacts</DialogTitle>
          <DialogDescription>Your synced contacts. Tick some, or select all that match.</DialogDescription>
        </DialogHeader>
        {signedOut ? (
          <p role="alert" className="text-sm">
            Please sign in to access contacts
          </p>
        ) : (
          <>
            <Input
              aria-label="Search contacts"
              placeholder="Search by name, e-mail, phone or company"
              value={search}
              onChange={(e) => {
                setSearch(e.target.value);
                setAll(false); // select-all was of the previous search
              }}
            />
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={all}
                disabled={!matching || matching.count === 0}
                onChange={(e) => setAll(e.target.checked)}
              />
              Select all{' '}
              {matching ? `${matching.estimate ? '≈ ' : ''}${matching.count.toLocaleString()} ` : ''}
              matching
            </label>
            <ul
              aria-label="Contacts to select"
              className="h-[400px] divide-y divide-border overflow-y-auto rounded-md border border-border text-sm"
            >
              {list.isPending && (
                <li className="p-3">
                  <Spinner />
                </li>
              )}
              {list.isError && !signedOut && (
                <li role="alert" className="p-3 text-destructive">
                  {list.error.message}
                </li>
              )}
              {list.isSuccess && rows.length === 0 && (
                <li className="p-3 text-muted-foreground">No contacts match.</li>
              )}
              {rows.map((c) => {
                const contact = {
                  id: c.id,
                  name: `${c.firstName} ${c.lastName}`.trim(),
                  phone: c.phone,
                  company: c.company,
                };
                return (
                  <li key={c.id}>
                    <label className="flex items-center gap-3 p-2">
                      <input
                        type="checkbox"
                        checked={all || picked.has(c.id)}
                        disabled={all}
                        onChange={() => toggle(contact)}
                        aria-label={`Select ${contact.name}`}
                      />
                      <span className="min-w-0">
                        <span className="block truncate font-medium">{contact.name}</span>
                        <span className="block truncate text-muted-foreground">
                          {[c.phone && formatPhoneForDisplay(c.phone), c.company, c.email]
                            .filter(Boolean)
                            .join(' · ')}
                        </span>
                      </span>
                    </label>
                  </li>
                );
              })}
              <ShowMoreItem {...list} />
            </ul>
          </>
        )}
        <DialogFooter>
          <span className="mr-auto self-center text-sm text-muted-foreground" aria-label="Selected count">
            {all ? 'All matching' : `${picked.size.toLocaleString()} selected`}
          </span>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button onClick={confirm} disabled={all && !matching}>
            Confirm Selection
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
