import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { isFinished } from '#domain/calls/call-status.ts';
import { DEFAULT_QUEUE_ID } from '#domain/contacts/queue.schema.ts';
import {
  type CallTarget,
  callerIdToSend,
  closeActiveCall,
  showActiveCall,
  useActiveCall,
  phone,
  placeCall,
  useCall,
  useCallOutcomeToasts,
  useCallingSetup,
  useHangUp,
  usePhone,
} from '../../calls/public.ts';
import { useQueues, useQueueWalk } from '../../queues/public.ts';

export type DialerTab = 'dialer' | 'notes' | 'contacts' | 'disposition';

/**
 * What the browser dialer knows and does: the phone, the queue it walks (the default queue 'All Synced Contacts'
 * when none is chosen, decision 000) and the contact it offers, the call it placed, its notes and disposition, and
 * closing (which lets go of the held contact as Save & Exit does).
 */
export function useBrowserDialer(
  open: boolean,
  chosenQueue: { id: string; name: string } | null,
  onOpenChange: (open: boolean) => void,
) {
  const setup = useCallingSetup();
  const device = usePhone();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<DialerTab>('dialer');
  const [chosen, setChosen] = useState<CallTarget | null>(null);
  // The number typed on the Dialer tab, kept while other tabs are open.
  const [number, setNumber] = useState('');
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
  const followed = useCall(active?.call.id ?? null);
  const call = followed.data ?? active?.call ?? null;
  const onCall = call !== null && !isFinished(call.status);
  useCallOutcomeToasts(active ? call : null);
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
    if (!who.phone.trim())
      return void toast.error(who.contactId ? 'No phone number' : 'No number entered', {
        description: who.contactId ? 'This contact has no phone number.' : undefined,
      });
    // Until the phone's provider is known (the telephony setup still loading) the device is not ready either.
    if (!provider || device.status !== 'ready')
      return void toast.error('Device Not Ready', {
        description: 'The phone is not connected yet. Try again in a moment.',
      });
    const placed = await placeCall(
      {
        contactId: who.contactId,
        to: who.phone,
        from: from ?? callerIdToSend(setup.data),
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

  const seconds =
    device.status === 'on-call'
      ? device.callDuration
      : call && isFinished(call.status)
        ? (call.durationSeconds ?? device.callDuration)
        : 0;

  return {
    setup,
    device,
    provider,
    queue,
    walk,
    tab,
    setTab,
    chosen,
    setChosen,
    number,
    setNumber,
    active,
    call,
    onCall,
    target,
    notes,
    setNotes,
    setDispositionChosen,
    from,
    setFrom,
    hangingUp: hangUp.isPending,
    dial,
    endCall,
    finishContact,
    close,
    seconds,
  };
}
export type BrowserDialer = ReturnType<typeof useBrowserDialer>;
