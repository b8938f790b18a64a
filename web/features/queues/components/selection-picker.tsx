import { useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { Upload, Users, X } from 'lucide-react';
import { formatPhoneForDisplay } from '#domain/contacts/phone.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ImportContactsDialog } from '../../contact-import/public.ts';
import { ContactSelectorDialog, selectionSize, type ContactSelection } from '../../contacts/public.ts';

/**
 * Select Contacts, Import Contacts, the count badge and the removable list (15rem) of what is chosen: contacts one
 * by one, or every contact matching a search as one line.
 */
export function SelectionPicker({
  selection,
  onChange,
  loading = false,
}: {
  selection: ContactSelection | null;
  onChange: (selection: ContactSelection | null) => void;
  loading?: boolean;
}) {
  const [selecting, setSelecting] = useState(false);
  const count = selectionSize(selection);
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" variant="outline" onClick={() => setSelecting(true)}>
          <Users /> Select Contacts
        </Button>
        <ImportContactsDialog
          trigger={
            <Button type="button" variant="outline">
              <Upload /> Import Contacts
            </Button>
          }
          onImported={(report) => {
            if (report.created === 0)
              return void toast.info('No new contacts in the file', {
                description: `${report.updated + report.skipped} row(s) were already in your contacts or skipped: pick those with Select Contacts.`,
              });
            onChange({
              kind: 'import',
              importId: report.id,
              fileName: report.fileName,
              count: report.created,
            });
            toast.success('Contacts selected', {
              description: `The ${report.created.toLocaleString()} new contact(s) from ${report.fileName}.${report.updated ? ` ${report.updated} already in your contacts were updated: pick them with Select Contacts.` : ''}`,
            });
          }}
        />
        <Badge aria-label="Selected count">{count.toLocaleString()} selected</Badge>
        {loading && <Spinner />}
      </div>
      {selection && count > 0 && (
        <ul
          aria-label="Selected contacts"
          className="max-h-[15rem] divide-y divide-border overflow-y-auto rounded-md border border-border text-sm"
        >
          {selection.kind === 'import' ? (
            <SelectedRow removeLabel="Remove the imported contacts" onRemove={() => onChange(null)}>
              {selection.count.toLocaleString()} new contacts from {selection.fileName}
            </SelectedRow>
          ) : selection.kind === 'all' ? (
            <SelectedRow removeLabel="Remove all matching" onRemove={() => onChange(null)}>
              All {selection.estimate ? 'about ' : ''}
              {selection.count.toLocaleString()} contacts
              {selection.search ? ` matching “${selection.search}”` : ''}
            </SelectedRow>
          ) : (
            selection.contacts.map((c) => (
              <SelectedRow
                key={c.id}
                removeLabel={`Remove ${c.name}`}
                onRemove={() => {
                  const contacts = selection.contacts.filter((x) => x.id !== c.id);
                  onChange(contacts.length ? { kind: 'ids', contacts } : null);
                }}
              >
                {c.name}
                {c.phone && (
                  <span className="text-muted-foreground"> · {formatPhoneForDisplay(c.phone)}</span>
                )}
              </SelectedRow>
            ))
          )}
        </ul>
      )}
      {selecting && (
        <ContactSelectorDialog
          open
          onOpenChange={setSelecting}
          initial={selection}
          onConfirm={(next) => onChange(next)}
        />
      )}
    </div>
  );
}

/** One line of the removable list: what is selected, and its remove button. */
function SelectedRow(props: { removeLabel: string; onRemove: () => void; children: ReactNode }) {
  return (
    <li className="flex items-center gap-2 p-2">
      <span className="min-w-0 truncate">{props.children}</span>
      <Button
        type="button"
        size="sm"
        variant="ghost"
        className="ml-auto"
        aria-label={props.removeLabel}
        onClick={props.onRemove}
      >
        <X />
      </Button>
    </li>
  );
}
