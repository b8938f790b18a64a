import { useState } from 'react';
import { Input } from '../../../components/ui/input.tsx';
import { ShowMoreItem } from '../../../components/ui/show-more-item.tsx';
import { useDebouncedSearch } from '../../../lib/use-debounced.ts';
import { toast } from 'sonner';
import { Phone, Plus } from 'lucide-react';
import { formatPhoneForDisplay } from '#domain/contacts/phone.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import type { CallTarget } from '../../calls/public.ts';
import { useQueueMembers } from '../../queues/public.ts';
import { AddDialerContactForm } from './add-dialer-contact-form.tsx';
import { DialerImportDialog } from './dialer-import-dialog.tsx';

/**
 * The dialer's Contacts tab: the queue's contacts in queue order with the ones already done
 * marked, their count, Add Contact (the new contact joins the queue), Import, and a Call on each.
 */
export function DialerContactsTab({
  queueId,
  total,
  onCall,
  callDisabled,
}: {
  queueId: string | undefined;
  total: number | null;
  onCall: (who: CallTarget) => void;
  callDisabled: boolean;
}) {
  const [adding, setAdding] = useState(false);
  const [search, setSearch] = useState('');
  const term = useDebouncedSearch(search);
  const members = useQueueMembers(queueId, term);
  const rows = members.data?.pages.flatMap((p) => p.members) ?? [];
  return (
    <>
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm font-medium" aria-label="Contact count">
          {total === null ? '…' : `${total} contacts`}
        </span>
        <Input
          className="h-8 max-w-48"
          placeholder="Search"
          aria-label="Search contacts"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <Button size="sm" className="ml-auto" onClick={() => setAdding((a) => !a)}>
          <Plus /> Add Contact
        </Button>
        <DialerImportDialog queueId={queueId} />
      </div>
      {adding && <AddDialerContactForm queueId={queueId} onDone={() => setAdding(false)} />}
      <ul
        aria-label="Dialer contacts"
        className="flex-1 divide-y divide-border overflow-y-auto rounded-md border border-border text-sm"
      >
        {members.isSuccess && rows.length === 0 && (
          <li className="p-3 text-muted-foreground">
            {term
              ? 'No contact of this queue matches.'
              : 'No contacts in this queue yet: add or import some.'}
          </li>
        )}
        {rows.map((c) => {
          const name = `${c.firstName} ${c.lastName}`;
          return (
            <li key={c.contactId} className="flex items-center gap-3 p-2">
              <div className="min-w-0">
                <p className="truncate font-medium">{name}</p>
                <p className="text-muted-foreground">
                  {[c.phone && formatPhoneForDisplay(c.phone), c.company].filter(Boolean).join(' · ') ||
                    'No phone number'}
                </p>
              </div>
              {c.completed && <Badge variant="secondary">Done</Badge>}
              <Button
                size="sm"
                variant="outline"
                className="ml-auto"
                aria-label={`Call ${name}`}
                disabled={callDisabled}
                onClick={() => {
                  if (!c.phone) return void toast.error('No phone number');
                  onCall({ contactId: c.contactId, name, phone: c.phone, company: c.company });
                }}
              >
                <Phone /> Call
              </Button>
            </li>
          );
        })}
        <ShowMoreItem {...members} />
      </ul>
    </>
  );
}
