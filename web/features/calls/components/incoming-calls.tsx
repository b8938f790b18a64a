import { useEffect } from 'react';
import { Link } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { PhoneIncoming, PhoneOff } from 'lucide-react';
import { isFinished } from '#domain/calls/call-status.ts';
import { DISPOSITION_LABELS, type Disposition } from '#domain/calls/disposition.ts';
import type { IncomingCall } from '#domain/calls/incoming-call.ts';
import { formatPhoneForDisplay } from '#domain/contacts/phone.ts';
import { Button } from '../../../components/ui/button.tsx';
import { answerIncomingCall, declineIncomingCall, useActiveCall } from '../active-call.ts';
import { useCallingSetup } from '../api/calls-queries.ts';
import { useIncomingCalls } from '../api/incoming-calls.ts';
import { callingFromLine } from '../local-presence.ts';
import { phone } from '../phone/browser-phone.ts';

/**
 * Calls coming in to the user's numbers (decision 028), top right on every screen of every open tab: who is calling
 * (their contact, last disposition and notes, or 'Unknown caller' with Add Contact) and Answer. The first tab or
 * device to answer takes the call; the others stop ringing when the call changes. On Twilio the browser phone is
 * registered while the app is open, so calls can ring it.
 */
export function IncomingCalls({ enabled }: { enabled: boolean }) {
  const setup = useCallingSetup();
  const provider = enabled ? setup.data?.provider : undefined;
  const incoming = useIncomingCalls(enabled);
  useEffect(() => {
    if (provider === 'twilio') void phone.start('twilio');
  }, [provider]);
  const calls = incoming.data ?? [];
  if (!provider || calls.length === 0) return null;
  return (
    <div className="fixed right-4 top-16 z-50 flex w-96 max-w-[calc(100vw-2rem)] flex-col gap-2">
      {calls.map((ringing) => (
        <RingingCall key={ringing.call.id} ringing={ringing} provider={provider} />
      ))}
    </div>
  );
}

function RingingCall({ ringing, provider }: { ringing: IncomingCall; provider: 'simulator' | 'twilio' }) {
  const { call, contact, callerPlace } = ringing;
  const queryClient = useQueryClient();
  const active = useActiveCall();
  const onAnotherCall = active !== null && !isFinished(active.call.status) && active.call.id !== call.id;
  const answer = useMutation({
    mutationFn: () =>
      answerIncomingCall(
        call,
        {
          contactId: contact?.id,
          name: contact?.name ?? 'Unknown caller',
          phone: call.from,
          company: contact?.company ?? null,
        },
        provider,
      ),
    onError: (error) => toast.error('Could not answer the call', { description: error.message }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['calls', 'incoming'] }),
  });
  const decline = useMutation({
    mutationFn: () => declineIncomingCall(call, provider),
    onSuccess: () => toast.success('Call declined', { description: 'The caller can leave you a voicemail.' }),
    onError: (error) => toast.error('Could not decline the call', { description: error.message }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['calls', 'incoming'] }),
  });
  const number = formatPhoneForDisplay(call.from);
  const lastDisposition = contact?.lastDisposition
    ? (DISPOSITION_LABELS[contact.lastDisposition as Disposition] ?? contact.lastDisposition)
    : null;
  return (
    <section
      role="alertdialog"
      aria-label={`Incoming call from ${contact?.name ?? 'Unknown caller'}`}
      className="flex flex-col gap-2 rounded-lg border-2 border-primary bg-card p-4 shadow-xl"
    >
      <p className="flex items-center gap-2 text-sm font-medium text-primary">
        <PhoneIncoming className="size-4 animate-pulse" aria-hidden /> Incoming call
      </p>
      <div>
        <p className="text-lg font-semibold">
          {contact ? (
            <Link to={`/contacts/${contact.id}`} className="hover:underline">
              {contact.name || number}
            </Link>
          ) : (
            'Unknown caller'
          )}
        </p>
        <p className="text-sm text-muted-foreground">
          {[number, callerPlace, contact?.company].filter(Boolean).join(' · ')}
        </p>
        <p className="text-xs text-muted-foreground">{callingFromLine(call, undefined)}</p>
      </div>
      {contact && (
        <div className="rounded-md bg-muted p-2 text-sm">
          <p>
            <span className="text-muted-foreground">Last disposition: </span>
            {lastDisposition ?? 'none yet'}
            {contact.lastCalledAt && (
              <span className="text-muted-foreground">
                {' '}
                · last call {new Date(contact.lastCalledAt).toLocaleDateString()}
              </span>
            )}
          </p>
          {contact.lastNotes && (
            <p className="mt-1 line-clamp-3 whitespace-pre-line" title={contact.lastNotes}>
              {contact.lastNotes}
            </p>
          )}
        </div>
      )}
      <div className="flex gap-2">
        <Button
          className="flex-1"
          disabled={answer.isPending || onAnotherCall}
          title={onAnotherCall ? 'End your current call to answer this one' : undefined}
          onClick={() => answer.mutate()}
        >
          <PhoneIncoming /> Answer
        </Button>
        <Button
          variant="outline"
          disabled={decline.isPending || answer.isPending}
          onClick={() => decline.mutate()}
        >
          <PhoneOff /> Decline
        </Button>
        {!contact && (
          <Button variant="outline" asChild>
            <Link to={`/contacts/new?phone=${encodeURIComponent(call.from)}`}>Add Contact</Link>
          </Button>
        )}
      </div>
      {onAnotherCall && <p className="text-xs text-muted-foreground">You are on another call.</p>}
    </section>
  );
}
