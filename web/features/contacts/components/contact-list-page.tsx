import { useEffect, useState, type ComponentType } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Download, PhoneCall, RefreshCw, Trash2, Send } from 'lucide-react';
import {
  CONTACT_TAB_LABELS,
  ContactTabSchema,
  formatCount,
  hasActiveFilter,
  type ContactListItem,
} from '#domain/contacts/contact-list.schema.ts';
import { pageTotal, requestForPage } from '#domain/contacts/contact-paging.ts';
import type { BulkSelection } from '#domain/contacts/bulk-selection.schema.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Tabs, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';
import {
  contactKeys,
  useBulkDelete,
  useContactCounts,
  useContactsPage,
  useContactTags,
  useDeleteContact,
} from '../api/contacts-queries.ts';
import { AddColdLeadDialog } from './add-cold-lead-dialog.tsx';
import { ContactFilterBar } from './contact-filter-bar.tsx';
import { useContactListState } from './use-contact-list-state.ts';
import { ContactsTable } from './contacts-table.tsx';
import { Pagination } from './pagination.tsx';
import { ImportContactsDialog } from '../../contact-import/public.ts';
import { useExportContacts } from '../../contact-export/public.ts';
import { SendEmailDialog } from '../../email/public.ts';
import { BulkCallDialog, useCallAction } from '../../calls/public.ts';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu.tsx';

/** /contacts: tabs with counts, filters, search, sort, pages of 100, selection and bulk actions. */
/** What the list's "Send to Campaign" opens, given by a feature above contacts (queues and campaigns live there). */
export type SendToCampaignProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  selection: BulkSelection;
  count: number;
  onDone: () => void;
};

export function ContactListPage({ SendToCampaign }: { SendToCampaign: ComponentType<SendToCampaignProps> }) {
  const state = useContactListState();
  const { tab, filters, searchInput, search, sort, selected, allMatching, filter, selection } = state;
  const [dialog, setDialog] = useState<'bulk-delete' | 'campaign' | 'bulk-call' | null>(null);
  const [rowToDelete, setRowToDelete] = useState<ContactListItem | null>(null);
  const [rowToEmail, setRowToEmail] = useState<ContactListItem | null>(null);
  const { exportContacts, exporting } = useExportContacts();
  const callContact = useCallAction();
  const queryClient = useQueryClient();

  const contacts = useContactsPage(state.listQuery);
  const counts = useContactCounts(filter);
  const tags = useContactTags();
  const bulkDelete = useBulkDelete();
  const deleteOne = useDeleteContact();

  const data = contacts.data;
  // The total is the current tab's count, which loads beside the rows and never holds them up.
  const total = counts.data?.[tab];
  const page = data?.page ?? 1;
  const pages = data ? pageTotal(total, data) : 1;
  const selectedCount = allMatching ? (total?.count ?? 0) : selected.size;

  useEffect(() => {
    if (contacts.isError)
      toast.error('Error loading contacts', { description: 'Could not load contacts. Please try again.' });
  }, [contacts.isError, contacts.errorUpdatedAt]);

  const { clearSelection } = state;
  const rowsOnScreen = data?.contacts.map((c) => c.id) ?? [];

  const handleBulkDelete = () =>
    bulkDelete.mutate(selection, {
      onSuccess: ({ deleted }) => {
        toast.success('Contacts deleted', { description: `Successfully deleted ${deleted} contact(s)` });
        clearSelection();
        setDialog(null);
      },
      onError: () => toast.error('Error', { description: 'Could not delete contact. Please try again.' }),
    });
  const handleDeleteRow = () => {
    if (!rowToDelete) return;
    deleteOne.mutate(rowToDelete.id, {
      onSuccess: () => {
        toast.success('Contact deleted', {
          description: `${rowToDelete.firstName} ${rowToDelete.lastName} was deleted.`,
        });
        state.forget(rowToDelete.id);
        setRowToDelete(null);
      },
      onError: () => toast.error('Error', { description: 'Could not delete contact. Please try again.' }),
    });
  };

  const active = hasActiveFilter({ ...filter, search });
  const content = (
    <div className="flex flex-col gap-4">
      <ContactFilterBar
        searchInput={searchInput}
        onSearchInput={state.typeSearch}
        onSearchSubmit={state.submitSearch}
        filters={filters}
        onChange={state.changeFilters}
        tags={tags.data ?? []}
        showClear={active}
        onClear={state.clearAll}
      />
      {selectedCount > 0 && (
        <div
          role="region"
          aria-label="Bulk actions"
          className="flex flex-wrap items-center gap-3 rounded-md border border-border bg-muted/50 p-3 text-sm"
        >
          <span className="font-medium">{selectedCount.toLocaleString()} contact(s) selected</span>
          {!allMatching &&
            data &&
            total &&
            selected.size === data.contacts.length &&
            total.count > data.contacts.length && (
              <Button variant="link" size="sm" onClick={state.selectAllMatching}>
                Select all {formatCount(total)} matching
              </Button>
            )}
          <div className="ml-auto flex flex-wrap gap-2">
            <Button
              variant="outline"
              size="sm"
              disabled={exporting}
              onClick={() =>
                exportContacts(
                  allMatching
                    ? { kind: 'filter', filter: { ...filter, search }, tab }
                    : { kind: 'ids', ids: [...selected] },
                )
              }
            >
              <Download /> Export Selected
            </Button>
            <Button variant="outline" size="sm" onClick={() => setDialog('bulk-call')}>
              <PhoneCall /> Call Selected
            </Button>
            <Button variant="outline" size="sm" onClick={() => setDialog('campaign')}>
              <Send /> Send to Campaign
            </Button>
            <Button variant="destructive" size="sm" onClick={() => setDialog('bulk-delete')}>
              <Trash2 /> Delete Selected
            </Button>
          </div>
        </div>
      )}
      {contacts.isError && (
        <div
          role="alert"
          className="flex items-center gap-3 rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm"
        >
          Failed to load contacts: {contacts.error.message}
          <Button variant="outline" size="sm" onClick={() => void contacts.refetch()}>
            Try Again
          </Button>
        </div>
      )}
      {contacts.isPending ? (
        <div className="flex justify-center p-8">
          <Spinner />
        </div>
      ) : data && data.contacts.length > 0 ? (
        <ContactsTable
          contacts={data.contacts}
          selected={selected}
          allMatching={allMatching}
          onToggle={(id) => state.toggle(id, rowsOnScreen)}
          onTogglePage={(checked) => state.togglePage(checked, rowsOnScreen)}
          sort={sort}
          onSort={state.sortBy}
          onDelete={setRowToDelete}
          onEmail={setRowToEmail}
          onCall={(c) =>
            callContact({
              contactId: c.id,
              name: `${c.firstName} ${c.lastName}`,
              phone: c.phone ?? '',
              company: c.company,
            })
          }
        />
      ) : (
        !contacts.isError && (
          <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-border p-12 text-center">
            <p className="font-medium">No contacts found</p>
            <Link to="/contacts/new" className="text-sm text-primary hover:underline">
              Add Contact
            </Link>
          </div>
        )
      )}
      {data && data.contacts.length > 0 && (
        <p className="text-center text-sm text-muted-foreground">
          {`Page ${page.toLocaleString()} of ${pages.toLocaleString()}`}
          {total && ` · ${formatCount(total)} contacts`}
        </p>
      )}
      {data && (
        <Pagination
          page={page}
          pages={pages}
          onPageChange={(target) => state.goToPage(requestForPage(target, data, pages, total))}
        />
      )}
    </div>
  );

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Contacts</h1>
          <p className="text-muted-foreground">Manage your contacts and communication history</p>
        </div>
        <div className="ml-auto flex gap-2">
          {(counts.data?.all.count ?? 0) > 0 && (
            <Button
              variant="outline"
              onClick={() => {
                toast.info('Refreshing contacts');
                void queryClient.invalidateQueries({ queryKey: contactKeys.all });
              }}
            >
              <RefreshCw /> Refresh
            </Button>
          )}
          <Button variant="outline" asChild>
            <Link to="/contacts/new">Add Contact</Link>
          </Button>
          <ImportContactsDialog />
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="outline" disabled={exporting}>
                <Download /> {exporting ? 'Exporting...' : 'Export'}
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent>
              <DropdownMenuItem onSelect={() => exportContacts({ kind: 'all' })}>
                All contacts
              </DropdownMenuItem>
              {(active || tab !== 'all') && (
                <DropdownMenuItem
                  onSelect={() => exportContacts({ kind: 'filter', filter: { ...filter, search }, tab })}
                >
                  Contacts matching this view
                </DropdownMenuItem>
              )}
            </DropdownMenuContent>
          </DropdownMenu>
          <AddColdLeadDialog />
        </div>
      </div>
      <Tabs value={tab} onValueChange={(v) => state.changeTab(ContactTabSchema.parse(v))}>
        <TabsList className="flex-wrap">
          {ContactTabSchema.options.map((t) => (
            <TabsTrigger key={t} value={t}>
              {CONTACT_TAB_LABELS[t]}
              <span
                className="ml-2 rounded-full bg-muted px-2 text-xs"
                aria-label={`${CONTACT_TAB_LABELS[t]} count`}
              >
                {counts.data ? formatCount(counts.data[t]) : '…'}
              </span>
            </TabsTrigger>
          ))}
        </TabsList>
      </Tabs>
      <div role="tabpanel" aria-label={CONTACT_TAB_LABELS[tab]}>
        {content}
      </div>
      <ConfirmDialog
        open={dialog === 'bulk-delete'}
        onOpenChange={(open) => setDialog(open ? 'bulk-delete' : null)}
        title="Confirm Bulk Delete"
        description={`Are you sure you want to delete ${selectedCount.toLocaleString()} contact(s)? This action cannot be undone.`}
        confirmLabel="Delete"
        busy={bulkDelete.isPending}
        onConfirm={handleBulkDelete}
      />
      <ConfirmDialog
        open={rowToDelete !== null}
        onOpenChange={(open) => !open && setRowToDelete(null)}
        title="Are you sure?"
        description="This will permanently delete the contact. This action cannot be undone."
        confirmLabel="Delete"
        busy={deleteOne.isPending}
        onConfirm={handleDeleteRow}
      />
      {rowToEmail && (
        <SendEmailDialog
          contact={{ ...rowToEmail, title: rowToEmail.title ?? null }}
          open
          onOpenChange={(open) => !open && setRowToEmail(null)}
        />
      )}
      <BulkCallDialog
        open={dialog === 'bulk-call'}
        onOpenChange={(open) => setDialog(open ? 'bulk-call' : null)}
        selection={selection}
        count={selectedCount}
        onStarted={clearSelection}
      />
      <SendToCampaign
        open={dialog === 'campaign'}
        onOpenChange={(open) => setDialog(open ? 'campaign' : null)}
        selection={selection}
        count={selectedCount}
        onDone={clearSelection}
      />
    </div>
  );
}
