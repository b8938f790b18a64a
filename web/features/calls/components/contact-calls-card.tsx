import { useState } from 'react';
import { toast } from 'sonner';
import { formatDuration } from '#domain/calls/call-log.ts';
import { ANSWERED_BY_BADGE } from '#domain/calls/answered-by.ts';
import { DISPOSITION_LABELS, type Disposition } from '#domain/calls/disposition.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatDate, formatMoment } from '../../../lib/dates.ts';
import { RecordingPlayer } from '../../recordings/public.ts';
import { useContactCalling, useRemoveDoNotCall } from '../api/calls-queries.ts';

const labelOf = (d: string) => DISPOSITION_LABELS[d as Disposition] ?? d;

/**
 * A contact's calls and dispositions, newest first, and its do-not-call state with "Remove from do-not-call" behind a
 * confirmation.
 */
export function ContactCallsCard({ contactId, enabled = true }: { contactId: string; enabled?: boolean }) {
  const calling = useContactCalling(contactId, enabled);
  const remove = useRemoveDoNotCall();
  const [confirming, setConfirming] = useState(false);
  if (calling.isPending) return <Spinner />;
  if (calling.isError) return null;
  const { calls, dispositions, doNotCall, smsOptedOut, recordings } = calling.data;
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-center gap-3">
        <CardTitle>Calls</CardTitle>
        {smsOptedOut && (
          <Badge
            variant="secondary"
            title="This number replied STOP: no text message goes to it until it replies START."
          >
            Opted out of SMS
          </Badge>
        )}
        {doNotCall && (
          <>
            <Badge variant="destructive">Do not call</Badge>
            <Button variant="outline" size="sm" className="ml-auto" onClick={() => setConfirming(true)}>
              Remove from do-not-call
            </Button>
          </>
        )}
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {calls.length === 0 && dispositions.length === 0 ? (
          <p className="text-sm text-muted-foreground">No calls yet.</p>
        ) : (
          <ul aria-label="Calls" className="flex flex-col gap-2 text-sm">
            {calls.map((c) => {
              const d = dispositions.find((x) => x.callId === c.id);
              const recorded = recordings.find((v) => v.callId === c.id);
              return (
                <li
                  key={c.id}
                  className="flex flex-wrap items-center gap-2 rounded-md border border-border p-2"
                >
                  <span>{formatMoment(c.startedAt)}</span>
                  <Badge variant="secondary">{c.status}</Badge>
                  {c.answeredBy && ANSWERED_BY_BADGE[c.answeredBy] && (
                    <Badge variant="outline">{ANSWERED_BY_BADGE[c.answeredBy]}</Badge>
                  )}
                  {c.abandonedAt && <Badge variant="destructive">Abandoned</Badge>}
                  {c.direction === 'inbound' && (
                    <Badge variant={c.answeredAt ? 'outline' : 'destructive'}>
                      {c.answeredAt ? 'Incoming' : 'Missed'}
                    </Badge>
                  )}
                  {d && <Badge>{labelOf(d.disposition)}</Badge>}
                  {recorded && (
                    <RecordingPlayer
                      recording={recorded.recording}
                      label={recorded.kind === 'voicemail' ? 'Voicemail' : 'Call recording'}
                    />
                  )}
                  <span className="ml-auto tabular-nums text-muted-foreground">
                    {formatDuration(c.durationSeconds ?? 0)}
                  </span>
                  {d?.notes && <p className="w-full whitespace-pre-wrap text-muted-foreground">{d.notes}</p>}
                </li>
              );
            })}
            {dispositions
              .filter((d) => !d.callId)
              .map((d) => (
                <li
                  key={d.id}
                  className="flex flex-wrap items-center gap-2 rounded-md border border-border p-2"
                >
                  <span>{formatMoment(d.calledAt)}</span>
                  <Badge>{labelOf(d.disposition)}</Badge>
                  {d.callbackDate && <span>Call back {formatDate(d.callbackDate)}</span>}
                  {d.notes && <p className="w-full whitespace-pre-wrap text-muted-foreground">{d.notes}</p>}
                </li>
              ))}
          </ul>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Remove from do-not-call?"
        description="This number asked not to be called. Remove it only if you have their permission to call again."
        confirmLabel="Remove"
        busy={remove.isPending}
        onConfirm={() =>
          remove.mutate(contactId, {
            onSuccess: () => {
              setConfirming(false);
              toast.success('Removed from do-not-call');
            },
            onError: (error) => toast.error('Error', { description: error.message }),
          })
        }
      />
    </Card>
  );
}
