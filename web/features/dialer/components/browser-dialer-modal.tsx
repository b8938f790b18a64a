import { useEffect, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { LogOut, Mic, MicOff, Phone, PhoneOff, RotateCcw, Volume2, VolumeX } from 'lucide-react';
import { isFinished } from '#domain/calls/call-status.ts';
import { formatPhoneForDisplay } from '#domain/contacts/phone.ts';
import { DEFAULT_QUEUE_ID } from '#domain/contacts/queue.schema.ts';
import { SKIP_REASON_TEXT, WALK_MESSAGES } from '#domain/dialer/queue-walk.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import {
  CallSummary,
  type CallTarget,
  closeActiveCall,
  showActiveCall,
  useActiveCall,
  DispositionForm,
  phone,
  type PhoneSnapshot,
  placeCall,
  useCall,
  useCallingSetup,
  useHangUp,
  usePhone,
} from '../../calls/public.ts';
import { useQueues, useQueueWalk, useRestartQueue } from '../../queues/public.ts';
import { DialerContactsTab } from './dialer-contacts-tab.tsx';
import { DialerKeypad } from './dialer-keypad.tsx';

type Tab = 'dialer' | 'notes' | 'contacts' | 'disposition';

const STATUS_LABEL: Record<PhoneSnapshot['status'], string> = {
  disconnected: 'Connecting…',
  ready: 'Ready',
  'on-call': 'On call',
  error: 'Phone error',
};

/**
 * The browser dialer: connection status, 'Queue: N remaining', the Dialer,
 * Notes, Contacts and Disposition tabs, END CALL, the in-call panel and Save & Exit. It walks a call queue on the
 * server (the default queue 'All Synced Contacts' when none is chosen, decision 000): saving a disposition
 * completes the contact and the next one is served; contacts that cannot be called are skipped with the reason;
 * 'Queue completed' at the end. Closing it lets go of the held contact as Save & Exit does, without the toast.
 */
export function BrowserDialerModal({
  open,
  onOpenChange,
  queue: chosenQueue,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The queue to walk; the default queue when null. */
  queue: { id: string; name: string } | null;
}) {
  const setup = useCallingSetup();
  const device = usePhone();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<Tab>('dialer');
  const [number, setNumber] = useState('');
  const [chosen, setChosen] = useState<CallTarget | null>(null);
  // The live call is the tab's one store (calls/active-call.ts); the dialer shows the calls it placed itself.
  const live = useActiveCall();
  const active = live?.shownIn === 'dialer' ? live : null;
  const [notes, setNotes] = useState('');
  const [dispositionChosen, setDispositionChosen] = useState(false);
  const [from, setFrom] = useState<string | null>(null);
  const queues = useQueues(open && chosenQueue === null);
  const defaultQueue = queues.data?.find((q) => q.queueId === DEFAULT_QUEUE_ID);
  const queue = chosenQueue ?? (defaultQueue ? { id: defaultQueue.id, name: defaultQueue.name } : null);
  const walk = useQueueWalk(open && queue ? queue.id : null);
  const restart = useRestartQueue();
  const followed = useCall(active?.call.id ?? null);
  const call = followed.data ?? active?.call ?? null;
  const onCall = call !== null && !isFinished(call.status);
  const hangUp = useHangUp();
  const provider = setup.data?.provider;

  const next = walk.contact;
  const target: CallTarget | null =
    active?.target ??
    chosen ??
    (next
      ? {
          contactId: next.id,
          name: `${next.firstName} ${next.lastName}`,
          phone: next.phone ?? '',
          company: next.company,
        }
      : null);

  useEffect(() => {
    if (open && provider) void phone.start(provider);
  }, [open, provider]);
  useEffect(() => {
    phone.setContext({ hasContact: Boolean(active?.target.contactId), hasDisposition: dispositionChosen });
  }, [active, dispositionChosen]);
  useEffect(() => {
    if (call) phone.observe(call);
  }, [call]);
  // A call that ends unanswered never connects: its disposition is asked for all the same (once per call).
  const [shownFor, setShownFor] = useState<string | null>(null);
  if (
    call &&
    isFinished(call.status) &&
    !call.answeredAt &&
    active?.target.contactId &&
    shownFor !== call.id
  ) {
    setShownFor(call.id);
    setTab('disposition');
  }
  useEffect(
    () =>
      phone.onEffect((effect) => {
        if (effect === 'show-disposition') setTab('disposition');
        if (effect === 'call-ended-prompt')
          toast.info('Call Ended', { description: 'Please select a disposition and save the call log' });
      }),
    [],
  );

  const dial = async (who: CallTarget) => {
    if (!provider) return;
    if (!who.phone.trim())
      return void toast.error(who.contactId ? 'No phone number' : 'No number entered', {
        description: who.contactId ? 'This contact has no phone number.' : undefined,
      });
    if (device.status !== 'ready')
      return void toast.error('Device Not Ready', {
        description: 'The phone is not connected yet. Try again in a moment.',
      });
    const placed = await placeCall(
      {
        contactId: who.contactId,
        to: who.phone,
        from: from ?? setup.data?.defaultFrom ?? null,
        // Only a queue contact's call is the queue's; a typed number is not.
        queueId: who.contactId && queue ? queue.id : undefined,
      },
      provider,
      provider === 'twilio' ? 'browser' : 'server',
    );
    if (!placed) return;
    // Notes typed before the call belong to it; the previous call's were cleared when its disposition was saved.
    if (active) setNotes('');
    showActiveCall(placed, who);
    setDispositionChosen(false);
    if (provider === 'twilio')
      await phone
        .connect(placed)
        .catch(() => toast.error('Call Failed', { description: 'Could not place the call' }));
  };

  const endCall = () => {
    if (!call) return;
    phone.hangUp();
    hangUp.mutate(call.id, {
      onError: (error) => toast.error('Could not end the call', { description: error.message }),
    });
  };

  // The disposition completed the contact on the server; the queues refetch, and with them the next contact.
  const finishContact = () => {
    closeActiveCall();
    setChosen(null);
    setNotes('');
    setDispositionChosen(false);
    setTab('dialer');
  };

  const close = (next: boolean, options: { saved?: boolean } = {}) => {
    if (!next && onCall) return void toast.error('End the call before closing the dialer');
    if (!next) {
      void queryClient.invalidateQueries({ queryKey: ['calls'] });
      void walk
        .saveAndExit({ quiet: !options.saved })
        .catch((error: Error) =>
          options.saved ? toast.error('Could not save progress', { description: error.message }) : undefined,
        );
    }
    if (!next && active && call && isFinished(call.status)) closeActiveCall();
    onOpenChange(next);
  };

  const submitNumber = (event: FormEvent) => {
    event.preventDefault();
    if (!number.trim()) return void toast.error('No number entered');
    void dial({ name: number.trim(), phone: number.trim() });
  };

  const seconds =
    device.status === 'on-call'
      ? device.callDuration
      : call && isFinished(call.status)
        ? (call.durationSeconds ?? device.callDuration)
        : 0;

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent
        className="flex h-[700px] max-w-2xl flex-col gap-3"
        aria-describedby="dialer-description"
      >
        <div className="flex flex-wrap items-center gap-3 pr-8">
          <DialogTitle>Browser Dialer</DialogTitle>
          <Badge
            variant={
              device.status === 'error' ? 'destructive' : device.status === 'ready' ? 'default' : 'secondary'
            }
            aria-label="Phone status"
          >
            {STATUS_LABEL[device.status]}
          </Badge>
          <span className="text-sm text-muted-foreground" aria-label="Queue">
            Queue: {walk.remaining?.toLocaleString() ?? '…'} remaining
          </span>
          {queue && (
            <span className="truncate text-sm font-medium" aria-label="Walking">
              {queue.name}
            </span>
          )}
          <Button
            size="sm"
            variant="outline"
            className="ml-auto"
            disabled={onCall || !walk.step}
            onClick={() => close(false, { saved: true })}
          >
            <LogOut /> Save &amp; Exit
          </Button>
          {device.status === 'error' && provider && (
            <Button
              size="sm"
              variant="outline"
              onClick={() => {
                phone.reset();
                void phone.start(provider);
              }}
            >
              Reconnect
            </Button>
          )}
        </div>
        <DialogDescription id="dialer-description" className="sr-only">
          Call numbers and contacts from the browser, and record what happened.
        </DialogDescription>
        {provider === 'simulator' && (
          <p className="text-xs text-muted-foreground">
            Built-in simulator: no audio, and no real phone rings. The outcome follows the number (README).
          </p>
        )}

        {call && active && (
          <section
            aria-label="In call"
            className="flex items-center gap-3 rounded-md border border-border p-3"
          >
            <CallSummary
              name={active.target.name}
              phone={active.target.phone}
              status={call.status}
              seconds={seconds}
            />
            {onCall && (
              <div className="ml-auto flex flex-wrap items-center gap-2">
                <Button
                  size="sm"
                  variant={device.muted ? 'secondary' : 'outline'}
                  aria-pressed={device.muted}
                  onClick={() => {
                    phone.setMuted(!device.muted);
                    toast.info(device.muted ? 'Microphone unmuted' : 'Microphone muted');
                  }}
                >
                  {device.muted ? <MicOff /> : <Mic />} {device.muted ? 'Unmute' : 'Mute'}
                </Button>
                <Button
                  size="sm"
                  variant={device.speakerOn ? 'outline' : 'secondary'}
                  aria-pressed={!device.speakerOn}
                  onClick={() => {
                    phone.setSpeaker(!device.speakerOn);
                    toast.info(device.speakerOn ? 'Speaker off' : 'Speaker on');
                  }}
                >
                  {device.speakerOn ? <Volume2 /> : <VolumeX />}{' '}
                  {device.speakerOn ? 'Speaker' : 'Speaker off'}
                </Button>
                <Button variant="destructive" onClick={endCall} disabled={hangUp.isPending}>
                  <PhoneOff /> END CALL
                </Button>
              </div>
            )}
          </section>
        )}

        <Tabs value={tab} onValueChange={(v) => setTab(v as Tab)} className="flex min-h-0 flex-1 flex-col">
          <TabsList>
            <TabsTrigger value="dialer">Dialer</TabsTrigger>
            <TabsTrigger value="notes">Notes</TabsTrigger>
            <TabsTrigger value="contacts">Contacts</TabsTrigger>
            <TabsTrigger value="disposition">Disposition</TabsTrigger>
          </TabsList>

          <TabsContent value="dialer" className="flex flex-col gap-3 overflow-y-auto">
            {!active && !chosen && (
              <WalkNotice
                deleted={walk.deleted}
                finished={walk.finished}
                heldElsewhere={walk.step?.heldElsewhere ?? 0}
                filling={walk.step?.queue.filling != null}
                waiting={walk.step !== undefined && !walk.contact}
                restarting={restart.isPending}
                onRestart={() => queue && restart.mutate(queue.id)}
              />
            )}
            {target?.contactId && !active && (
              <div className="flex items-center gap-3 rounded-md border border-border p-3 text-sm">
                <div className="min-w-0">
                  <p className="text-xs text-muted-foreground">Next contact</p>
                  <p className="truncate font-medium">{target.name}</p>
                  <p className="text-muted-foreground">
                    {target.phone ? formatPhoneForDisplay(target.phone) : 'No phone number'}
                  </p>
                </div>
                <Button className="ml-auto" onClick={() => void dial(target)}>
                  <Phone /> Call {target.name}
                </Button>
              </div>
            )}
            <form className="flex gap-2" onSubmit={submitNumber}>
              <Label htmlFor="dialer-number" className="sr-only">
                Phone number
              </Label>
              <Input
                id="dialer-number"
                type="tel"
                placeholder="Phone number"
                value={number}
                onChange={(e) => setNumber(e.target.value)}
              />
              {onCall ? (
                <Button type="button" variant="destructive" onClick={endCall}>
                  <PhoneOff /> Hang up
                </Button>
              ) : (
                <Button type="submit">
                  <Phone /> Call
                </Button>
              )}
            </form>
            {(setup.data?.callerIds.length ?? 0) > 1 && (
              <div className="flex items-center gap-2">
                <Label htmlFor="dialer-from" className="shrink-0">
                  Call from
                </Label>
                <NativeSelect
                  id="dialer-from"
                  value={from ?? setup.data?.defaultFrom ?? ''}
                  onChange={(e) => setFrom(e.target.value)}
                >
                  {setup.data?.callerIds.map((c) => (
                    <option key={c.id} value={c.numberE164}>
                      {formatPhoneForDisplay(c.numberE164)}
                      {c.label ? ` (${c.label})` : ''}
                    </option>
                  ))}
                </NativeSelect>
              </div>
            )}
            <DialerKeypad onDigit={(d) => (onCall ? phone.sendDigits(d) : setNumber((n) => n + d))} />
            {onCall && device.sentDigits && (
              <p className="text-sm text-muted-foreground" aria-label="Digits sent">
                Sent: <span className="font-mono">{device.sentDigits}</span>
              </p>
            )}
          </TabsContent>

          <TabsContent value="notes" className="flex flex-col gap-2">
            <Label htmlFor="dialer-notes">Notes</Label>
            <Textarea
              id="dialer-notes"
              rows={10}
              value={notes}
              onChange={(e) => setNotes(e.target.value)}
              placeholder="Notes for this call; they are saved with the disposition."
            />
          </TabsContent>

          <TabsContent value="contacts" className="flex min-h-0 flex-col gap-3">
            <DialerContactsTab
              queueId={queue?.id}
              total={walk.step?.queue.total ?? null}
              callDisabled={onCall}
              onCall={(who) => {
                setChosen(who);
                setTab('dialer');
                void dial(who);
              }}
            />
            {walk.skipped.length > 0 && (
              <section aria-label="Skipped contacts" className="text-sm">
                <p className="font-medium">Skipped</p>
                <ul className="max-h-24 overflow-y-auto text-muted-foreground">
                  {walk.skipped.map((s) => (
                    <li key={s.contactId}>
                      {s.name}: {SKIP_REASON_TEXT[s.reason]}
                    </li>
                  ))}
                </ul>
              </section>
            )}
          </TabsContent>

          <TabsContent value="disposition" className="overflow-y-auto">
            {active?.target.contactId ? (
              <DispositionForm
                key={active.call.id}
                contactId={active.target.contactId}
                callId={active.call.id}
                durationSeconds={seconds}
                notes={notes}
                onNotesChange={setNotes}
                onChosen={setDispositionChosen}
                onSaved={finishContact}
                queueId={queue?.id}
              />
            ) : (
              <p className="text-sm text-muted-foreground">
                {active
                  ? 'A number without a contact: no disposition to record.'
                  : 'Call a contact to record what happened.'}
              </p>
            )}
          </TabsContent>
        </Tabs>
      </DialogContent>
    </Dialog>
  );
}

/** Why the walk offers no next contact: the queue is done, deleted, or the rest are held by another tab or device. */
function WalkNotice(props: {
  deleted: boolean;
  finished: boolean;
  heldElsewhere: number;
  filling: boolean;
  waiting: boolean;
  restarting: boolean;
  onRestart: () => void;
}) {
  if (props.deleted)
    return (
      <p role="alert" className="rounded-md border border-border p-3 text-sm">
        {WALK_MESSAGES.deleted}
      </p>
    );
  if (props.finished)
    return (
      <div className="flex items-center gap-3 rounded-md border border-border p-3 text-sm">
        <p>{WALK_MESSAGES.allCalled}</p>
        <Button
          size="sm"
          variant="outline"
          className="ml-auto"
          disabled={props.restarting}
          onClick={props.onRestart}
        >
          <RotateCcw /> Start over
        </Button>
      </div>
    );
  if (props.waiting)
    return (
      <p className="rounded-md border border-border p-3 text-sm text-muted-foreground">
        {props.heldElsewhere === 1
          ? 'The contact left is being called from another tab or device.'
          : props.heldElsewhere > 1
            ? `The ${props.heldElsewhere} contacts left are being called from another tab or device.`
            : props.filling
              ? 'More contacts are joining this queue; the next one shows here as soon as it is in.'
              : WALK_MESSAGES.empty}
      </p>
    );
  return null;
}
