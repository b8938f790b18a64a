import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';
import { DELIVERY_LOG_KEPT_DAYS } from '#domain/webhooks/webhook-delivery.ts';
import { formatMoment } from '../../../lib/dates.ts';
import { useRedeliver, useWebhookLog } from '../api/webhooks.ts';

const STATUS_LABELS = { pending: 'Retrying', delivered: 'Delivered', failed: 'Failed' } as const;

/** One endpoint's latest deliveries: what, when, how it went, the answer, and Redeliver. */
export function WebhookLog({ endpointId }: { endpointId: string }) {
  const log = useWebhookLog(endpointId);
  const redeliver = useRedeliver(endpointId);
  if (log.isPending) return <Spinner />;
  if (log.isError)
    return (
      <p role="alert" className="text-destructive">
        {log.error.message}
      </p>
    );
  if (log.data.deliveries.length === 0) return <p className="text-muted-foreground">Nothing sent yet.</p>;
  return (
    <div>
      <Table aria-label="Deliveries">
        <TableHeader>
          <TableRow>
            <TableHead>Event</TableHead>
            <TableHead>Status</TableHead>
            <TableHead>Answer</TableHead>
            <TableHead>Attempts</TableHead>
            <TableHead>Last attempt</TableHead>
            <TableHead>
              <span className="sr-only">Redeliver</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {log.data.deliveries.map((d) => (
            <TableRow key={d.id}>
              <TableCell className="font-mono text-xs">{d.type}</TableCell>
              <TableCell>
                {d.status === 'pending' && d.attempts === 0 ? 'Sending' : STATUS_LABELS[d.status]}
                {d.status === 'pending' && d.nextAttemptAt && d.attempts > 0 && (
                  <span className="text-muted-foreground"> · next {formatMoment(d.nextAttemptAt)}</span>
                )}
              </TableCell>
              <TableCell title={d.lastError ?? undefined}>
                {d.lastStatus ?? (d.lastError ? 'no answer' : '—')}
                {d.lastError && <span className="block text-xs text-muted-foreground">{d.lastError}</span>}
              </TableCell>
              <TableCell>{d.attempts}</TableCell>
              <TableCell>{d.lastAttemptAt ? formatMoment(d.lastAttemptAt) : '—'}</TableCell>
              <TableCell className="text-right">
                {d.status !== 'pending' && (
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={redeliver.isPending}
                    aria-label={`Redeliver ${d.type} ${d.id}`}
                    onClick={() =>
                      redeliver.mutate(d.id, {
                        onSuccess: () => toast.success('Sending it again'),
                        onError: (error) =>
                          toast.error('Could not redeliver', { description: error.message }),
                      })
                    }
                  >
                    Redeliver
                  </Button>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <p className="mt-2 text-xs text-muted-foreground">
        A delivery is kept here for {DELIVERY_LOG_KEPT_DAYS} days after its event or its last redelivery; one
        still being retried stays until it is done.
      </p>
    </div>
  );
}
