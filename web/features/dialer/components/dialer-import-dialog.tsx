import { useState } from 'react';
import { toast } from 'sonner';
import { Upload, Users } from 'lucide-react';
import { DEFAULT_QUEUE_ID, type AddToQueueResult, QUEUE_MESSAGES } from '#domain/contacts/queue.schema.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ImportContactsDialog } from '../../contact-import/public.ts';
import { ContactSelectorDialog, toBulkSelection } from '../../contacts/public.ts';
import { addedToQueueText, useAddFromQueue, useAddToQueue, useQueues } from '../../queues/public.ts';
import { useImportedJoinQueue } from './use-imported-join-queue.ts';
import { QrCodeImage } from './qr-code-image.tsx';

const addedToast = (result: AddToQueueResult) =>
  toast.success('Contacts added', {
    description: addedToQueueText(result),
  });

/**
 * The dialer's Import: Saved Contacts (the contact selector), Call Queues (another queue's contacts), CSV File (the
 * mapped import) and Mobile Device (a QR code that opens the dialer on the phone, and a .vcf or .csv file exported
 * from it). Contacts chosen, and the new contacts a file brings, join the queue being dialled (every new contact
 * is in All Synced Contacts anyway).
 */
export function DialerImportDialog({
  queueId: given,
  label = 'Import',
}: {
  /** The queue the contacts join; All Synced Contacts when undefined. */
  queueId: string | undefined;
  label?: string;
}) {
  const [selecting, setSelecting] = useState(false);
  const add = useAddToQueue();
  const addFrom = useAddFromQueue();
  const queues = useQueues(true);
  const queueId = given ?? queues.data?.find((q) => q.queueId === DEFAULT_QUEUE_ID)?.id;
  const others = queues.data?.filter((q) => q.id !== queueId) ?? [];
  const onError = (error: Error) => toast.error(QUEUE_MESSAGES.addFailed, { description: error.message });
  const joinQueue = useImportedJoinQueue();
  return (
    <>
      <ImportContactsDialog
        trigger={
          <Button size="sm" variant="outline">
            <Upload /> {label}
          </Button>
        }
        onImported={(report) => joinQueue(queueId, report)}
        sources={{
          tabs: [
            {
              value: 'saved',
              label: 'Saved Contacts',
              content: (
                <div className="flex flex-col items-start gap-3 text-sm">
                  <p className="text-muted-foreground">
                    Pick contacts already in the CRM; they join this queue.
                  </p>
                  <Button variant="outline" disabled={!queueId} onClick={() => setSelecting(true)}>
                    <Users /> Select Contacts
                  </Button>
                </div>
              ),
            },
            {
              value: 'queues',
              label: 'Call Queues',
              content:
                others.length === 0 ? (
                  <p className="text-sm text-muted-foreground">No other call queues.</p>
                ) : (
                  <ul aria-label="Queues to add" className="flex max-h-80 flex-col gap-2 overflow-y-auto">
                    {others.map((q) => (
                      <li
                        key={q.id}
                        className="flex items-center gap-3 rounded-md border border-border p-2 text-sm"
                      >
                        <span className="truncate font-medium">{q.name}</span>
                        <span className="text-muted-foreground">{q.total.toLocaleString()} contacts</span>
                        <Button
                          size="sm"
                          variant="outline"
                          className="ml-auto"
                          disabled={!queueId || addFrom.isPending}
                          onClick={() =>
                            queueId &&
                            addFrom.mutate(
                              { queueId, sourceQueueId: q.id },
                              { onSuccess: addedToast, onError },
                            )
                          }
                        >
                          Add {q.name}
                        </Button>
                      </li>
                    ))}
                  </ul>
                ),
            },
          ],
          mobileIntro: (
            <div className="flex flex-col items-center gap-2 text-sm">
              <QrCodeImage address={`${window.location.origin}/power-dialer`} />
              <p className="text-muted-foreground">Scan to open the dialer on your phone.</p>
            </div>
          ),
        }}
      />
      {selecting && queueId && (
        <ContactSelectorDialog
          open
          onOpenChange={setSelecting}
          initial={null}
          onConfirm={(selection) =>
            add.mutate({ queueId, selection: toBulkSelection(selection) }, { onSuccess: addedToast, onError })
          }
        />
      )}
    </>
  );
}
