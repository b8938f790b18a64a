import { QueueFillNote } from './queue-fill-note.tsx';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { queueErrorText } from '../queue-error-text.ts';
import { Pencil, PhoneCall, Trash2 } from 'lucide-react';
import { DEFAULT_QUEUE_ID, QUEUE_MESSAGES, type QueueSummary } from '#domain/contacts/queue.schema.ts';
import { queueProgress, queueStatus } from '#domain/dialer/queue-walk.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Progress } from '../../../components/ui/progress.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { useDeleteQueue } from '../api/queues-queries.ts';

/** What /power-dialer reads from navigation state to open the dialer on a queue. */
export type CallQueueState = { callQueue: { id: string; name: string } };

/**
 * The Call Queues table of the Campaigns tab (decision 000 "Queue status"): name, created,
 * remaining contacts with a progress bar, the true status, and Call, Edit and Delete (confirmed; a server call).
 */
export function CallQueuesTable({ queues }: { queues: QueueSummary[] }) {
  const navigate = useNavigate();
  const remove = useDeleteQueue();
  const [deleting, setDeleting] = useState<QueueSummary | null>(null);
  if (queues.length === 0)
    return (
      <p className="rounded-md border border-dashed border-border p-8 text-center text-sm text-muted-foreground">
        No queues found. Create your first queue to get started.
      </p>
    );
  return (
    <>
      <Table aria-label="Call Queues">
        <TableHeader>
          <TableRow>
            <TableHead>Queue Name</TableHead>
            <TableHead>Created</TableHead>
            <TableHead className="w-56">Remaining Contacts</TableHead>
            <TableHead>Status</TableHead>
            <TableHead className="text-right">Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {queues.map((queue) => {
            const { remaining, percent } = queueProgress(queue);
            const isDefault = queue.queueId === DEFAULT_QUEUE_ID;
            return (
              <TableRow key={queue.id}>
                <TableCell className="font-medium">{queue.name}</TableCell>
                <TableCell>{formatDate(queue.createdAt)}</TableCell>
                <TableCell>
                  <div className="flex flex-col gap-1">
                    <span className="text-sm">
                      {remaining.toLocaleString()} of {queue.total.toLocaleString()} ({percent}% called)
                    </span>
                    <Progress value={percent} label={`${queue.name} progress`} />
                    <QueueFillNote queue={queue} />
                  </div>
                </TableCell>
                <TableCell>
                  <Badge variant={queueStatus(queue) === 'Completed' ? 'default' : 'secondary'}>
                    {queueStatus(queue)}
                  </Badge>
                </TableCell>
                <TableCell>
                  <div className="flex justify-end gap-1">
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Call ${queue.name}`}
                      title="Call this queue in the power dialer"
                      onClick={() =>
                        void navigate('/power-dialer', {
                          state: { callQueue: { id: queue.id, name: queue.name } } satisfies CallQueueState,
                        })
                      }
                    >
                      <PhoneCall />
                    </Button>
                    {!isDefault && (
                      <>
                        <Button size="sm" variant="ghost" aria-label={`Edit ${queue.name}`} asChild>
                          <Link to={`/projects/queue/edit/${queue.id}`} state={{ queueName: queue.name }}>
                            <Pencil />
                          </Link>
                        </Button>
                        <Button
                          size="sm"
                          variant="ghost"
                          aria-label={`Delete ${queue.name}`}
                          onClick={() => setDeleting(queue)}
                        >
                          <Trash2 />
                        </Button>
                      </>
                    )}
                  </div>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this queue?"
        description={`${deleting?.name ?? ''} and its progress are deleted. Its contacts stay, and calls made from it stay in the logs.`}
        confirmLabel="Delete Queue"
        busy={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toast.success('Queue deleted', { description: deleting.name });
              setDeleting(null);
            },
            onError: (error) =>
              toast.error('Error', { description: queueErrorText(error, QUEUE_MESSAGES.deleteFailed) }),
          })
        }
      />
    </>
  );
}
