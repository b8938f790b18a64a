import { useEffect, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Phone, PhoneOff, Plus, Upload } from 'lucide-react';
import type { Call } from '#domain/calls/call.schema.ts';
import { isFinished } from '#domain/calls/call-status.ts';
import { formatPhoneForDisplay } from '#domain/contacts/phone.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { ImportContactsDialog } from '../../contact-import/public.ts';
import {
  CallSummary,
  type CallTarget,
  DispositionForm,
  phone,
  type PhoneSnapshot,
  placeCall,
  useCall,
  useCallingSetup,
  useHangUp,
  usePhone,
} from '../../calls/public.ts';
import { useDialerContacts } from '../api/dialer-queries.ts';
import { AddDialerContactForm } from './add-dialer-contact-form.tsx';
import { DialerKeypad } from './dialer-keypad.tsx';
import { useDialerWalk } from './use-dialer-walk.ts';

type Tab = 'dialer' | 'notes' | 'contacts' | 'disposition';

const STATUS_LABEL: Record<PhoneSnapshot['status'], string> = {
  disconnected: 'Connecting…',
  ready: 'Ready',
  'on-call': 'On call',
  error: 'Phone error',
};

/**
 * The browser dialer (spec part 2 §2.5, §4.1, §4.4): connection status, 'Queue: N remaining', the Dialer, Notes,
 * Contacts and Disposition tabs, END CALL and the in-call panel. It walks the contacts least recently called
 * first: saving a disposition completes the contact and loads the next; 'Queue Complete' when none remain.
 */
export function BrowserDialerModal({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const setup = useCallingSetup();
  const device = usePhone();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<Tab>('dialer');
  const [number, setNumber] = useState('');
  const [search, setSearch] = useState('');
  const [adding, setAdding] = useState(false);
  const [chosen, setChosen] = useState<CallTarget | null>(null);
  const [active, setActive] = useState<{ call: Call; target: CallTarget } | null>(null);
  const [notes, setNotes] = useState('');
  const [dispositionChosen, setDispositionChosen] = useState(false);
  const [from, setFrom] = useState<string | null>(null);
  const contacts = useDialerContacts(search);
  const live = useCall(active?.call.id ?? null);
  const call = live.data ?? active?.call ?? null;
  const onCall = call !== null && !isFinished(call.status);
  const hangUp = useHangUp();
  const provider = setup.data?.provider;

  const walk = useDialerWalk(contacts.data?.contacts);
  const { remaining, next } = walk;
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
      { contactId: who.contactId, to: who.phone, from: from ?? setup.data?.defaultFrom ?? null },
      provider,
      provider === 'twilio' ? 'browser' : 'server',
    );
    if (!placed) return;
    // Notes typed before the call belong to it; the previous call's were cleared when its disposition was saved.
    if (active) setNotes('');
    setActive({ call: placed, target: who });
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

  const finishContact = () => {
    const done = active?.target.contactId;
    const walked = done ? walk.complete(done) : null;
    setActive(null);
    setChosen(null);
    setNotes('');
    setDispositionChosen(false);
    setTab('dialer');
    if (walked?.queueComplete) toast.success('Queue Complete');
  };

  const close = (next: boolean) => {
    if (!next && onCall) return void toast.error('End the call before closing the dialer');
    if (!next) void queryClient.invalidateQueries({ queryKey: ['calls'] });
    if (!next && active && call && isFinished(call.status)) setActive(null);
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
            Queue: {remaining.length}
            {contacts.data?.hasNext ? '+' : ''} remaining
          </span>
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
              <Button variant="destructive" onClick={endCall} disabled={hangUp.isPending}>
                <PhoneOff /> END CALL
              </Button>
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
            <div className="flex flex-wrap items-center gap-2">
              <span className="text-sm font-medium" aria-label="Contact count">
                {contacts.data
                  ? `${contacts.data.contacts.length}${contacts.data.hasNext ? '+' : ''} contacts`
                  : '…'}
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
              <ImportContactsDialog
                trigger={
                  <Button size="sm" variant="outline">
                    <Upload /> Import
                  </Button>
                }
              />
            </div>
            {adding && <AddDialerContactForm onDone={() => setAdding(false)} />}
            <ul
              aria-label="Dialer contacts"
              className="flex-1 divide-y divide-border overflow-y-auto rounded-md border border-border text-sm"
            >
              {contacts.data?.contacts.length === 0 && (
                <li className="p-3 text-muted-foreground">No contacts yet: add or import some.</li>
              )}
              {contacts.data?.contacts.map((c) => {
                const name = `${c.firstName} ${c.lastName}`;
                return (
                  <li key={c.id} className="flex items-center gap-3 p-2">
                    <div className="min-w-0">
                      <p className="truncate font-medium">{name}</p>
                      <p className="text-muted-foreground">
                        {[c.phone && formatPhoneForDisplay(c.phone), c.company].filter(Boolean).join(' · ') ||
                          'No phone number'}
                      </p>
                    </div>
                    {walk.isDone(c.id) && <Badge variant="secondary">Done</Badge>}
                    <Button
                      size="sm"
                      variant="outline"
                      className="ml-auto"
                      aria-label={`Call ${name}`}
                      disabled={onCall}
                      onClick={() => {
                        const who = { contactId: c.id, name, phone: c.phone ?? '', company: c.company };
                        if (!c.phone) return void toast.error('No phone number');
                        setChosen(who);
                        setTab('dialer');
                        void dial(who);
                      }}
                    >
                      <Phone /> Call
                    </Button>
                  </li>
                );
              })}
            </ul>
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
