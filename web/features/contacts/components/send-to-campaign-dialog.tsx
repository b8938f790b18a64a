import { useState } from 'react';
import { toast } from 'sonner';
import type { BulkSelection } from '#domain/contacts/bulk-selection.schema.ts';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useAddToQueue, useQueues } from '../api/contacts-queries.ts';

/**
 * Send to Campaign (decision 000): adds the selection to a chosen call queue; contacts already there are ignored.
 * E-mail and SMS campaigns join this list when they exist.
 */
export function SendToCampaignDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  selection: BulkSelection;
  count: number;
  onDone: () => void;
}) {
  const queues = useQueues(props.open);
  const add = useAddToQueue();
  const [chosen, setChosen] = useState<string | null>(null);
  const queueId = chosen ?? queues.data?.[0]?.id ?? null;

  const handleSend = () => {
    if (!queueId) return;
    add.mutate(
      { queueId, selection: props.selection },
      {
        onSuccess: (result) => {
          const name = queues.data?.find((q) => q.id === queueId)?.name ?? 'the queue';
          toast.success('Campaign prepared', {
            description: `${props.count} contact(s) ready for campaign: ${result.added} added to ${name}${result.alreadyInQueue ? `, ${result.alreadyInQueue} already there` : ''}.`,
          });
          props.onOpenChange(false);
          props.onDone();
        },
        onError: (error) => toast.error('Error', { description: error.message }),
      },
    );
  };

  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Send to Campaign</DialogTitle>
          <DialogDescription>
            Add {props.count} selected contact(s) to a call queue. Contacts already in it are skipped.
          </DialogDescription>
        </DialogHeader>
        {queues.isPending && <Spinner />}
        <div role="radiogroup" aria-label="Call queue" className="flex flex-col gap-2">
          {queues.data?.map((q) => (
            <label key={q.id} className="flex items-center gap-3 rounded-md border border-border p-3 text-sm">
              <input
                type="radio"
                name="queue"
                className="accent-primary"
                checked={queueId === q.id}
                onChange={() => setChosen(q.id)}
              />
              <span className="font-medium">{q.name}</span>
              <span className="ml-auto text-muted-foreground">{q.total.toLocaleString()} contacts</span>
            </label>
          ))}
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => props.onOpenChange(false)}>
            Cancel
          </Button>
          <Button disabled={!queueId || add.isPending} onClick={handleSend}>
            Add to queue
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
