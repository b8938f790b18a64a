import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { toast } from 'sonner';
import { z } from 'zod';
import { callingFromText } from '../local-presence.ts';
import { BulkCallSummarySchema, type BulkCallSummary } from '#domain/calls/bulk-call.schema.ts';
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
import { apiFetch } from '../../../lib/api-client.ts';
import { phone } from '../phone/browser-phone.ts';
import { useCallingSetup } from '../api/calls-queries.ts';

const JobResponse = z.object({ job: BulkCallSummarySchema });

/**
 * Call Selected → Confirm Bulk Call: the server calls each selected contact with
 * a phone, one a second, whether or not this tab stays open; this dialog follows it live and ends with the summary
 * (success, skipped, failed, and the errors with the contacts' names).
 */
export function BulkCallDialog({
  open,
  onOpenChange,
  selection,
  count,
  onStarted,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  selection: BulkSelection;
  count: number;
  onStarted: () => void;
}) {
  const setup = useCallingSetup();
  const [jobId, setJobId] = useState<string | null>(null);
  const start = useMutation({
    mutationFn: () =>
      apiFetch('/api/calls/bulk', { method: 'POST', body: { selection }, schema: JobResponse }),
  });
  const job = useQuery({
    queryKey: ['calls', 'bulk', jobId],
    queryFn: async ({ signal }) =>
      (await apiFetch(`/api/calls/bulk/${jobId}`, { schema: JobResponse, signal })).job,
    enabled: jobId !== null,
    refetchInterval: (q) => (q.state.data?.status === 'running' ? 500 : false),
  });
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) setJobId(null);
  };
  const summary = job.data;
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{jobId ? 'Bulk Call' : 'Confirm Bulk Call'}</DialogTitle>
          <DialogDescription>
            {jobId
              ? 'The calls go out from the server one a second; closing this window does not stop them.'
              : `Call ${count.toLocaleString()} contact(s), one a second${setup.data ? `, from ${callingFromText(setup.data)}` : ''}? Contacts without a phone number are left out.`}
          </DialogDescription>
        </DialogHeader>
        {summary && <Summary summary={summary} />}
        <DialogFooter>
          {!jobId ? (
            <>
              <Button variant="outline" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button
                disabled={start.isPending}
                onClick={() =>
                  start.mutate(undefined, {
                    onSuccess: ({ job: started }) => {
                      setJobId(started.id);
                      // On Twilio each answered call rings this browser's phone: make sure it is registered.
                      if (setup.data?.provider === 'twilio') void phone.start('twilio');
                      onStarted();
                      toast.success('Calls initiated', {
                        description: `${started.total} call(s) will go out, one a second.`,
                      });
                      if (started.withoutPhone > 0)
                        toast.warning('Missing phone numbers', {
                          description: `${started.withoutPhone} selected contact(s) don't have phone numbers.`,
                        });
                    },
                    onError: (error) => {
                      const [title, description] = error.message.startsWith('Missing phone')
                        ? error.message.split(': ')
                        : ['Error initiating calls', error.message];
                      toast.error(title ?? 'Error initiating calls', { description });
                    },
                  })
                }
              >
                Call
              </Button>
            </>
          ) : (
            <Button onClick={() => close(false)}>{summary?.status === 'running' ? 'Hide' : 'Done'}</Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function Summary({ summary }: { summary: BulkCallSummary }) {
  const done = summary.total - summary.pending;
  return (
    <section aria-label="Bulk call summary" className="flex flex-col gap-3 text-sm">
      <div
        role="progressbar"
        aria-label="Calls placed"
        aria-valuemin={0}
        aria-valuemax={summary.total}
        aria-valuenow={done}
        className="h-2 overflow-hidden rounded-full bg-muted"
      >
        <div
          className="h-full bg-primary"
          style={{ width: `${(done / Math.max(1, summary.total)) * 100}%` }}
        />
      </div>
      <p>
        {summary.status === 'running'
          ? `${done} of ${summary.total} done`
          : summary.status === 'canceled'
            ? 'Stopped.'
            : 'Finished.'}{' '}
        {summary.success} called · {summary.skipped} skipped · {summary.failed} failed
      </p>
      {summary.errors.length > 0 && (
        <ul aria-label="Not called" className="max-h-48 overflow-auto rounded-md border border-border">
          {summary.errors.map((e, i) => (
            <li key={i} className="border-b border-border p-2 last:border-0">
              <span className="font-medium">{e.contactName}</span>: {e.error}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
