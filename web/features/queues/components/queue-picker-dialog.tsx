import { QueueFillNote } from './queue-fill-note.tsx';
import { toast } from 'sonner';
import { QUEUE_MESSAGES } from '#domain/contacts/queue.schema.ts';
import { RefreshCw } from 'lucide-react';
import type { QueueSummary } from '#domain/contacts/queue.schema.ts';
import { queueProgress, queueStatus } from '#domain/dialer/queue-walk.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog.tsx';
import { Progress } from '../../../components/ui/progress.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useQueues } from '../api/queues-queries.ts';

/**
 * 'Select Calling Queue': the user's queues with remaining, total and called counts, a Refresh
 * action, and the spec's two empty states (nothing to list; the list could not be read).
 */
export function QueuePickerDialog({
  open,
  onOpenChange,
  onSelect,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSelect: (queue: QueueSummary) => void;
}) {
  const queues = useQueues(open);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>Select Calling Queue</DialogTitle>
          <DialogDescription>
            The power dialer walks the queue you choose, from where it stopped.
          </DialogDescription>
        </DialogHeader>
        <div className="flex justify-end">
          <Button
            size="sm"
            variant="outline"
            disabled={queues.isFetching}
            onClick={() => void queues.refetch().then((r) => !r.isError && toast.success('Queues refreshed'))}
          >
            <RefreshCw /> Refresh
          </Button>
        </div>
        {queues.isPending ? (
          <Spinner />
        ) : queues.isError ? (
          <div role="alert" className="rounded-md border border-border p-4 text-sm">
            <p className="font-medium">No calling queues available</p>
            <p className="text-muted-foreground">{QUEUE_MESSAGES.listFailed}</p>
          </div>
        ) : queues.data.length === 0 ? (
          <div className="rounded-md border border-border p-4 text-sm">
            <p className="font-medium">No Queues Available</p>
            <p className="text-muted-foreground">No calling queues available</p>
          </div>
        ) : (
          <ul aria-label="Calling queues" className="flex max-h-[400px] flex-col gap-2 overflow-y-auto">
            {queues.data.map((queue) => {
              const { remaining, percent } = queueProgress(queue);
              return (
                <li key={queue.id}>
                  <button
                    type="button"
                    className="flex w-full flex-col gap-2 rounded-md border border-border p-3 text-left hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
                    aria-label={`${queue.name}: ${remaining} remaining of ${queue.total}, ${queue.completed} called`}
                    onClick={() => onSelect(queue)}
                  >
                    <span className="flex items-center gap-2">
                      <span className="truncate font-medium">{queue.name}</span>
                      <Badge variant="secondary" className="ml-auto shrink-0">
                        {queueStatus(queue)}
                      </Badge>
                    </span>
                    <span className="text-sm text-muted-foreground">
                      {remaining} remaining · {queue.total} total · {queue.completed} called
                    </span>
                    <Progress value={percent} label={`${queue.name} progress`} />
                    <QueueFillNote queue={queue} />
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}
