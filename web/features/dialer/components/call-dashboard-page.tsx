import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { z } from 'zod';
import { ExternalLink, PhoneCall, QrCode, RotateCcw, Headphones } from 'lucide-react';
import { DueCallbackSchema } from '#domain/calls/call.schema.ts';
import { formatDuration } from '#domain/calls/call-log.ts';
import { timeIn } from '#domain/time/zoned-time.ts';
import { formatPhoneForDisplay } from '#domain/contacts/phone.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Stat } from '../../../components/ui/stat.tsx';
import { DayField } from '../../../components/ui/day-field.tsx';
import { apiFetch } from '../../../lib/api-client.ts';
import {
  callingFromText,
  MissedCallsCard,
  SimulateIncomingCall,
  useCallAction,
  useCallingSetup,
  useDayLog,
  useResetCallSystem,
} from '../../calls/public.ts';
import { QueuePickerDialog, useQueues, type CallQueueState } from '../../queues/public.ts';
import { DEFAULT_QUEUE_ID } from '#domain/contacts/queue.schema.ts';
import { BrowserDialerModal } from './browser-dialer-modal.tsx';
import { MobileQrDialog } from './mobile-qr-dialog.tsx';
import { DialerImportDialog } from './dialer-import-dialog.tsx';
import { DIALER_WINDOW_CLOSED, openDialerWindow } from './dialer-window-messages.ts';
import { formatDate } from '../../../lib/dates.ts';
import { dayBoundsIn, todayIn } from '../../../lib/zoned-days.ts';
import { useTimeZone } from '../../auth/public.ts';
import { RecordingPlayer } from '../../recordings/public.ts';

const mmddyyyy = (day: string) => `${day.slice(5, 7)}/${day.slice(8, 10)}/${day.slice(0, 4)}`;

/**
 * /power-dialer, the call dashboard: the Power Dialer and Browser Dialer cards, callbacks that
 * are due, and the Call Logs Dashboard for a day of the browser's (decision 000 day boundaries) with its four cards
 * and the Call History, refreshed every 60 s and on every change.
 */
export function CallDashboardPage() {
  // The day in the user's time zone (Settings → Profile, else the browser's), as the reports count it.
  const timeZone = useTimeZone();
  const [chosenDay, setDay] = useState<string | null>(null);
  const day = chosenDay ?? todayIn(timeZone);
  const { from, to } = dayBoundsIn(day, timeZone);
  const log = useDayLog(from, to);
  const setup = useCallingSetup();
  const reset = useResetCallSystem();
  const callContact = useCallAction();
  const [resetting, setResetting] = useState(false);
  const [qr, setQr] = useState(false);
  const [picking, setPicking] = useState(false);
  const [queue, setQueue] = useChosenQueue();
  // The default queue's id, so the pop-out can start its walk at once.
  const defaultQueueId = useQueues(true).data?.find((q) => q.queueId === DEFAULT_QUEUE_ID)?.id;
  // The Call action of the Call Queues table sends the queue here: the dialer opens on it at once.
  const location = useLocation();
  const [dialerOpen, setDialerOpen] = useState(() =>
    Boolean((location.state as CallQueueState | null)?.callQueue),
  );
  const [number, setNumber] = useState('');
  const queryClient = useQueryClient();
  // The pop-out says when it closes: its calls show in the day's log at once.
  useEffect(() => {
    const closed = (event: MessageEvent) => {
      if (event.origin !== window.location.origin) return;
      if ((event.data as { type?: unknown } | null)?.type !== DIALER_WINDOW_CLOSED) return;
      void queryClient.invalidateQueries({ queryKey: ['calls'] });
      void queryClient.invalidateQueries({ queryKey: ['queues'] });
    };
    window.addEventListener('message', closed);
    return () => window.removeEventListener('message', closed);
  }, [queryClient]);

  const dial = (event: FormEvent) => {
    event.preventDefault();
    if (!number.trim()) return toast.error('No number entered');
    callContact({ name: number.trim(), phone: number.trim() });
  };

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Power Dialer</h1>
        <p className="text-muted-foreground">
          {setup.data?.provider === 'twilio'
            ? 'Calls go out through Twilio.'
            : 'Calls go through the built-in simulator: no telephony account is needed, and no real phone rings.'}{' '}
          {setup.data && `Calling from ${callingFromText(setup.data)}.`}{' '}
          <Link to="/settings?tab=phone" className="text-primary hover:underline">
            Caller IDs
          </Link>
        </p>
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Power Dialer</CardTitle>
            <CardDescription>
              The browser dialer walks{' '}
              {queue ? (
                <>
                  the queue <span className="font-medium text-foreground">{queue.name}</span>
                </>
              ) : (
                'All Synced Contacts'
              )}
              , from where it stopped.
              {queue && (
                <Button variant="link" className="h-auto p-0 pl-1" onClick={() => setQueue(null)}>
                  Use All Synced Contacts
                </Button>
              )}
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-wrap gap-2">
            <Button onClick={() => setDialerOpen(true)}>
              <Headphones /> Power Dialer
            </Button>
            <Button
              variant="outline"
              onClick={() => {
                if (!openDialerWindow(queue?.id ?? defaultQueueId ?? null))
                  toast.error('Pop-up blocked', {
                    description: 'Allow pop-ups for this site to open the dialer window.',
                  });
              }}
            >
              <ExternalLink /> Pop-out Dialer
            </Button>
            <Button
              variant="outline"
              onClick={() => {
                if (!openDialerWindow(queue?.id ?? defaultQueueId ?? null, true))
                  toast.error('Pop-up blocked', {
                    description: 'Allow pop-ups for this site to open the dialer window.',
                  });
              }}
            >
              <ExternalLink /> Simple Pop-out
            </Button>
            <Button variant="outline" onClick={() => setQr(true)}>
              <QrCode /> Mobile QR
            </Button>
            <Button variant="outline" onClick={() => setResetting(true)}>
              <RotateCcw /> Reset Call System
            </Button>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Browser Dialer</CardTitle>
            <CardDescription>Call any number, or bring contacts in.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-3">
            <form className="flex gap-2" onSubmit={dial}>
              <Label htmlFor="dial-number" className="sr-only">
                Phone number
              </Label>
              <Input
                id="dial-number"
                type="tel"
                placeholder="Phone number"
                value={number}
                onChange={(e) => setNumber(e.target.value)}
              />
              <Button type="submit">
                <PhoneCall /> Call
              </Button>
            </form>
            <div className="flex flex-wrap gap-2">
              <DialerImportDialog queueId={queue?.id} label="Import Contacts" />
              <Button variant="outline" onClick={() => setPicking(true)}>
                Select Campaign
              </Button>
            </div>
            <SimulateIncomingCall idPrefix="dialer-simulate-incoming" />
          </CardContent>
        </Card>
      </div>
      <MissedCallsCard onCall={(target) => callContact(target)} />
      <DueCallbacks
        onCall={(c) =>
          callContact({
            contactId: c.contactId,
            name: c.contactName,
            phone: c.phone ?? '',
            company: c.company,
          })
        }
      />
      <Card>
        <CardHeader className="flex-row flex-wrap items-end gap-3">
          <div className="flex flex-col gap-1.5">
            <CardTitle>Call Logs Dashboard</CardTitle>
            <CardDescription>
              Your calls of the day, refreshed every minute and as calls happen.
            </CardDescription>
          </div>
          <DayField id="log-day" className="ml-auto" value={day} onChange={setDay} />
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {log.isPending ? (
            <Spinner />
          ) : log.isError ? (
            <p role="alert" className="text-sm text-destructive">
              Could not load the call logs: {log.error.message}
            </p>
          ) : (
            <>
              <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-label="Call statistics">
                <Stat label="Total Calls" value={String(log.data.stats.total)} />
                <Stat
                  label="Answered"
                  value={String(log.data.stats.answered)}
                  note={
                    log.data.stats.abandoned > 0
                      ? `${log.data.stats.answerRate}% answer rate; ${log.data.stats.abandoned} abandoned`
                      : `${log.data.stats.answerRate}% answer rate`
                  }
                />
                <Stat
                  label="Qualified"
                  value={String(log.data.stats.qualified)}
                  note={`${log.data.stats.qualifiedRate}% of answered`}
                />
                <Stat
                  label="Total Time"
                  value={formatDuration(log.data.stats.totalSeconds)}
                  note={`${formatDuration(log.data.stats.averageSeconds)} average`}
                />
              </dl>
              <section aria-label="Call History" className="flex flex-col gap-2">
                <h2 className="font-semibold">Call History</h2>
                {log.data.lines.length === 0 ? (
                  <p className="text-sm text-muted-foreground">No calls found for {mmddyyyy(day)}</p>
                ) : (
                  <ul className="flex flex-col divide-y divide-border rounded-md border border-border text-sm">
                    {log.data.lines.map((line) => (
                      <li key={line.key} className="flex flex-wrap items-center gap-3 p-3">
                        <div className="flex min-w-48 flex-col">
                          {line.contactId ? (
                            <Link to={`/contacts/${line.contactId}`} className="font-medium hover:underline">
                              {line.contactName ?? 'Deleted contact'}
                            </Link>
                          ) : (
                            <span className="font-medium">
                              {line.contactName ?? (line.callId ? 'No contact' : 'Deleted contact')}
                            </span>
                          )}
                          <span className="text-muted-foreground">
                            {[line.phone && formatPhoneForDisplay(line.phone), line.company]
                              .filter(Boolean)
                              .join(' · ')}
                          </span>
                        </div>
                        {line.disposition ? (
                          <Badge>{line.disposition.replaceAll('-', ' ')}</Badge>
                        ) : (
                          line.status && <Badge variant="secondary">{line.status.replaceAll('-', ' ')}</Badge>
                        )}
                        {line.abandoned && <Badge variant="destructive">Abandoned</Badge>}
                        {line.direction === 'inbound' && (
                          <Badge variant={line.answered ? 'outline' : 'destructive'}>
                            {line.answered ? 'Incoming' : 'Missed'}
                          </Badge>
                        )}
                        {line.recording && (
                          <RecordingPlayer
                            recording={line.recording}
                            label={`Call recording, ${line.contactName ?? (line.phone ? formatPhoneForDisplay(line.phone) : 'call')}`}
                          />
                        )}
                        {line.voicemail && (
                          <RecordingPlayer
                            recording={line.voicemail}
                            label={`Voicemail from ${line.contactName ?? (line.phone ? formatPhoneForDisplay(line.phone) : 'caller')}`}
                          />
                        )}
                        <span className="ml-auto tabular-nums">{formatDuration(line.durationSeconds)}</span>
                        <span className="tabular-nums text-muted-foreground">
                          {timeIn(new Date(line.at), timeZone)}
                        </span>
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            </>
          )}
        </CardContent>
      </Card>
      <ConfirmDialog
        open={resetting}
        onOpenChange={setResetting}
        title="Reset the call system?"
        description="Calls still marked as going on are closed and the call lock is released. Use it when a call is stuck."
        confirmLabel="Reset"
        busy={reset.isPending}
        onConfirm={() =>
          reset.mutate(undefined, {
            onSuccess: ({ closed }) => {
              setResetting(false);
              toast.success('Call system reset', { description: `${closed} unfinished call(s) closed.` });
            },
            onError: (error) => toast.error('Error', { description: error.message }),
          })
        }
      />
      <MobileQrDialog open={qr} onOpenChange={setQr} />
      <QueuePickerDialog
        open={picking}
        onOpenChange={setPicking}
        onSelect={(chosen) => {
          setQueue({ id: chosen.id, name: chosen.name });
          setPicking(false);
          setDialerOpen(true);
        }}
      />
      <BrowserDialerModal open={dialerOpen} onOpenChange={setDialerOpen} queue={queue} />
    </div>
  );
}

function DueCallbacks({ onCall }: { onCall: (c: z.infer<typeof DueCallbackSchema>) => void }) {
  const callbacks = useQuery({
    queryKey: ['calls', 'callbacks'],
    queryFn: async ({ signal }) =>
      (
        await apiFetch('/api/calls/callbacks', {
          schema: z.object({ callbacks: z.array(DueCallbackSchema) }),
          signal,
        })
      ).callbacks,
    refetchInterval: 60_000,
  });
  if (!callbacks.data?.length) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Callbacks due</CardTitle>
      </CardHeader>
      <CardContent>
        <ul aria-label="Callbacks due" className="flex flex-col divide-y divide-border text-sm">
          {callbacks.data.map((c) => (
            <li key={c.dispositionId} className="flex flex-wrap items-center gap-3 py-2">
              <Link to={`/contacts/${c.contactId}`} className="font-medium hover:underline">
                {c.contactName}
              </Link>
              <span className="text-muted-foreground">{formatDate(c.callbackDate)}</span>
              {c.notes && <span className="text-muted-foreground">{c.notes}</span>}
              <Button size="sm" className="ml-auto" disabled={!c.phone} onClick={() => onCall(c)}>
                <PhoneCall /> Call back
              </Button>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

/** The queue the power dialer walks, remembered in this browser; null is the default queue. */
const CHOSEN_QUEUE_KEY = 'power-dialer-queue';
function useChosenQueue() {
  const sent = (useLocation().state as CallQueueState | null)?.callQueue;
  const [queue, setQueue] = useState<{ id: string; name: string } | null>(() => {
    if (sent) {
      localStorage.setItem(CHOSEN_QUEUE_KEY, JSON.stringify(sent));
      return sent;
    }
    try {
      const stored = JSON.parse(localStorage.getItem(CHOSEN_QUEUE_KEY) ?? 'null') as unknown;
      return z.object({ id: z.string(), name: z.string() }).nullable().parse(stored);
    } catch {
      return null;
    }
  });
  const choose = (next: { id: string; name: string } | null) => {
    setQueue(next);
    if (next) localStorage.setItem(CHOSEN_QUEUE_KEY, JSON.stringify(next));
    else localStorage.removeItem(CHOSEN_QUEUE_KEY);
  };
  return [queue, choose] as const;
}
