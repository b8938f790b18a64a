import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { PhoneOff, X } from 'lucide-react';
import { suggestedDisposition } from '#domain/calls/answered-by.ts';
import { isFinished } from '#domain/calls/call-status.ts';
import { Button } from '../../../components/ui/button.tsx';
import { phone } from '../phone/browser-phone.ts';
import { closeActiveCall, useActiveCall } from '../active-call.ts';
import { useCall, useCallingSetup, useHangUp } from '../api/calls-queries.ts';
import { DispositionForm } from './disposition-form.tsx';
import { callingFromLine } from '../local-presence.ts';
import { CallSummary } from './call-summary.tsx';
import { VoicemailDropControl } from './voicemail-drop-control.tsx';
import { useCallOutcomeToasts } from '../use-call-outcome-toasts.ts';
import { useToastsClearOf } from '../../../lib/toasts-clear-of.ts';

/**
 * The call in progress, bottom right on every screen: who, the live state and a timer while connected, END CALL,
 * then the disposition (in-call panel). When the call ends with no disposition chosen,
 * the spec's 'Call Ended' prompt asks for one.
 */
export function ActiveCallPanel({
  inline = false,
  keyboard = false,
  onSaved,
}: {
  inline?: boolean;
  /** The dialer's keys: Esc ends the call, 1–8 choose a disposition, Enter saves it. */
  keyboard?: boolean;
  /** Told when the disposition is saved (the panel closes then): the parallel dialer's wrap-up starts. */
  onSaved?: () => void;
}) {
  const active = useActiveCall();
  if (!active || active.shownIn !== 'panel') return null;
  return <Panel key={active.call.id} inline={inline} keyboard={keyboard} onSaved={onSaved} />;
}

function Panel({ inline, keyboard, onSaved }: { inline: boolean; keyboard: boolean; onSaved?: () => void }) {
  const active = useActiveCall()!;
  const live = useCall(active.call.id);
  const call = live.data ?? active.call;
  const hangUp = useHangUp();
  const setup = useCallingSetup();
  const [now, setNow] = useState(() => Date.now());
  const [chosen, setChosen] = useState(false);
  const endedPrompted = useRef(false);
  const section = useRef<HTMLElement>(null);
  useToastsClearOf(section, !inline);
  const finished = isFinished(call.status);
  useCallOutcomeToasts(call);

  useEffect(() => {
    if (call.status !== 'in-progress') return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [call.status]);

  useEffect(() => {
    if (finished && !chosen && active.target.contactId && !endedPrompted.current) {
      endedPrompted.current = true;
      toast.info('Call Ended', { description: 'Please select a disposition and save the call log' });
    }
  }, [finished, chosen, active.target.contactId]);

  const endCall = () => {
    phone.hangUp();
    hangUp.mutate(call.id, {
      onSuccess: () => toast.success('Call ended'),
      onError: (error) => toast.error('Could not end the call', { description: error.message }),
    });
  };
  // Re-bound on every render, so Esc always ends the call as it is now.
  useEffect(() => {
    if (!keyboard || finished) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || hangUp.isPending) return;
      event.preventDefault();
      endCall();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const seconds = finished
    ? (call.durationSeconds ?? 0)
    : call.answeredAt
      ? Math.max(0, Math.round((now - new Date(call.answeredAt).getTime()) / 1000))
      : 0;

  return (
    <section
      ref={section}
      aria-label="Current call"
      className={
        inline
          ? 'flex flex-col gap-3 rounded-lg border border-border bg-card p-4'
          : 'fixed bottom-4 right-4 z-40 flex w-96 max-w-[calc(100vw-2rem)] flex-col gap-3 rounded-lg border border-border bg-card p-4 shadow-xl'
      }
    >
      <div className="flex items-start gap-2">
        <CallSummary
          name={active.target.name}
          phone={active.target.phone}
          status={call.status}
          seconds={seconds}
          answeredBy={call.answeredBy}
          callingFrom={callingFromLine(call, setup.data)}
        />
        {finished && (
          <Button variant="ghost" size="icon" aria-label="Close" onClick={closeActiveCall}>
            <X />
          </Button>
        )}
      </div>
      {call.recorded && (
        <p role="note" className="flex items-center gap-1.5 text-xs text-muted-foreground">
          <span className="inline-block size-2 rounded-full bg-destructive" aria-hidden />
          {call.recordingDisclosure
            ? `Recorded · they hear first: “${call.recordingDisclosure}”`
            : 'Recorded · no disclosure needed (one-party consent)'}
        </p>
      )}
      {call.error && <p className="text-sm text-destructive">{call.error}</p>}
      {!finished && (
        <Button variant="destructive" disabled={hangUp.isPending} onClick={endCall}>
          <PhoneOff /> END CALL
        </Button>
      )}
      {call.status === 'in-progress' && call.direction === 'outbound' && (
        <VoicemailDropControl
          call={call}
          onLeft={() => {
            // The message plays on without the rep; its outcome is saved: on to the next call.
            closeActiveCall();
            onSaved?.();
          }}
        />
      )}
      {active.target.contactId ? (
        <DispositionForm
          contactId={active.target.contactId}
          callId={call.id}
          durationSeconds={seconds}
          onChosen={setChosen}
          suggested={suggestedDisposition(call.answeredBy)}
          onSaved={() => {
            closeActiveCall();
            onSaved?.();
          }}
          queueId={active.target.queueId}
          keyboard={keyboard}
        />
      ) : (
        <p className="text-xs text-muted-foreground">A number without a contact: no disposition to record.</p>
      )}
    </section>
  );
}
