import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Pause, Play } from 'lucide-react';
import { isFinished } from '#domain/calls/call-status.ts';
import { DISPOSITION_LABELS, DispositionSchema } from '#domain/calls/disposition.ts';
import { formatPhoneForDisplay } from '#domain/contacts/phone.ts';
import {
  LINE_STATE_TEXT,
  type ParallelState,
  type RoundLine,
} from '#domain/dialer/parallel-dialing.schema.ts';
import { WALK_MESSAGES, waitingText } from '#domain/dialer/queue-walk.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useTimeZone } from '../../auth/public.ts';
import {
  ActiveCallPanel,
  phone,
  takeConnectedCall,
  useActiveCall,
  useCallingSetup,
} from '../../calls/public.ts';
import { useDialingSettings, useParallelState, useRoundControl } from '../api/parallel-queries.ts';

/** Seconds of wrap-up after a disposition is saved before new lines ring (0: at once). */
const WRAP_UP_CHOICES = [0, 5, 15, 30] as const;
const WRAP_UP_KEY = 'dialer-wrap-up-seconds';
/** Caps a queue may choose, in percent; the law's 3 % is the highest. */
const CAP_CHOICES = [3, 2.5, 2, 1.5, 1] as const;

/**
 * Parallel dialing in the dialer (docs/decisions/026-parallel-dialing-pacing.md): Start rings as many lines as the
 * pacing rule says, the lines show as they ring, the first person who answers becomes the live call (with its
 * disposition), the others are released or dispositioned by themselves, and the next round rings after wrap-up.
 * Pause stops at once (lines still ringing are released). Keys: Space starts or pauses; in a call, Esc ends it, 1–8
 * choose a disposition and Enter saves it.
 */
export function ParallelDialer({ queueId, walker }: { queueId: string; walker: string }) {
  const state = useParallelState(queueId, walker);
  const control = useRoundControl(queueId, walker);
  const settings = useDialingSettings(queueId, walker);
  const active = useActiveCall();
  const timeZone = useTimeZone();
  const [running, setRunning] = useState(false);
  const [wrapUp, setWrapUp] = useState(() => Number(localStorage.getItem(WRAP_UP_KEY) ?? 0));
  const [wrapUntil, setWrapUntil] = useState<number | null>(null);
  const taken = useRef(new Set<string>());
  const data = state.data;
  const round = data?.round ?? null;

  // The line that reached a person becomes the live call, once.
  const connected = round?.lines.find((l) => l.callId === round.connectedCallId);
  useEffect(() => {
    if (!connected || taken.current.has(connected.callId)) return;
    taken.current.add(connected.callId);
    const c = connected.contact;
    void takeConnectedCall(connected.callId, {
      contactId: c.id,
      name: `${c.firstName} ${c.lastName}`.trim(),
      phone: c.phone ?? '',
      company: c.company,
      queueId,
    }).catch((error: Error) => toast.error('Could not open the call', { description: error.message }));
  }, [connected, queueId]);

  // Wrap-up runs from the moment the disposition is saved; the countdown ticks while it runs.
  const [now, setNow] = useState(0);
  useEffect(() => {
    if (wrapUntil === null) return;
    const timer = setInterval(() => {
      setNow(Date.now());
      if (Date.now() >= wrapUntil) setWrapUntil(null);
    }, 250);
    return () => clearInterval(timer);
  }, [wrapUntil]);

  // The person connected is still on the line (the disposition can be saved during the call): no new lines yet.
  const connectedLive = connected !== undefined && !isFinished(connected.status);
  const idle = running && !active && (!round || round.settled) && !connectedLive && wrapUntil === null;
  const { mutate: startRound, isPending: starting } = control.start;
  useEffect(() => {
    if (!idle || starting) return;
    const before = round?.id ?? null;
    startRound(undefined, {
      onSuccess: (next) => {
        if (next.skipped.length > 0)
          toast.info(
            `Skipped ${next.skipped.length === 1 ? next.skipped[0]!.name : `${next.skipped.length} contacts`}`,
            {
              description: [...new Set(next.skipped.map((s) => s.text))].join('; '),
            },
          );
        // No new round: nobody left to call now. Dialing stops; the screen says why.
        if ((next.round?.id ?? null) === before) setRunning(false);
      },
      onError: (error) => {
        setRunning(false);
        toast.error('Could not start the next round', { description: error.message });
      },
    });
  }, [idle, starting, startRound, round?.id]);

  const { mutate: pauseRound } = control.pause;
  const provider = useCallingSetup().data?.provider;
  const toggle = useCallback(() => {
    if (!running) {
      if (provider !== 'twilio') return setRunning(true);
      // On Twilio the rep talks through the browser phone: it must be ready before lines ring.
      void phone.start('twilio');
      void phone.whenReady().then((ready) => {
        if (ready) setRunning(true);
        else toast.error('Device Not Ready', { description: 'The browser phone could not connect.' });
      });
      return;
    }
    setRunning(false);
    setWrapUntil(null);
    pauseRound(undefined, {
      onError: (error) => toast.error('Could not pause', { description: error.message }),
    });
  }, [running, pauseRound, provider]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== ' ' || isField(event.target)) return;
      event.preventDefault();
      toggle();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle]);

  if (state.isPending) return <Spinner />;
  if (state.isError) return <p role="alert">{state.error.message}</p>;
  const s = data!;
  const left = s.queue.total - s.queue.completed;
  const nothingLeft = !running && round?.settled !== false && left === 0 && s.queue.total > 0;
  const wrapLeft = wrapUntil
    ? Math.max(0, Math.ceil((wrapUntil - Math.max(now, wrapUntil - wrapUp * 1000)) / 1000))
    : 0;

  return (
    <div className="flex flex-col gap-3">
      <section
        aria-label="Parallel dialing"
        className="flex flex-col gap-3 rounded-md border border-border p-4"
      >
        <AbandonmentLine state={s} />
        <p className="text-sm" aria-label="Next round">
          Next round: <span className="font-medium">{s.next.why}</span>
        </p>
        <div className="flex flex-wrap items-end gap-3">
          <Button onClick={toggle} variant={running ? 'outline' : 'default'} aria-keyshortcuts="Space">
            {running ? (
              <>
                <Pause /> Pause
              </>
            ) : (
              <>
                <Play /> Start dialing
              </>
            )}
          </Button>
          <div className="flex flex-col gap-1">
            <Label htmlFor="wrap-up">Wrap-up</Label>
            <NativeSelect
              id="wrap-up"
              value={wrapUp}
              onChange={(e) => {
                setWrapUp(Number(e.target.value));
                localStorage.setItem(WRAP_UP_KEY, e.target.value);
              }}
            >
              {WRAP_UP_CHOICES.map((n) => (
                <option key={n} value={n}>
                  {n === 0 ? 'Until the disposition is saved' : `${n} s after the disposition`}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor="abandon-cap">Abandonment cap</Label>
            <NativeSelect
              id="abandon-cap"
              value={s.capPercent}
              onChange={(e) => {
                const cap = Number(e.target.value);
                settings.mutate(
                  { mode: 'parallel', capPercent: cap === 3 ? null : cap },
                  {
                    onError: (error) => toast.error('Could not save the cap', { description: error.message }),
                  },
                );
              }}
            >
              {CAP_CHOICES.map((n) => (
                <option key={n} value={n}>
                  {n === 3 ? "3 % (the law's)" : `${n} %`}
                </option>
              ))}
            </NativeSelect>
          </div>
        </div>
        {wrapLeft > 0 && (
          <p role="status" className="text-sm">
            Wrap-up: next lines ring in {wrapLeft} s.
          </p>
        )}
        {round && <RoundLines lines={round.lines} />}
        {nothingLeft ? (
          <p role="status" className="text-sm">
            {WALK_MESSAGES.allCalled}
          </p>
        ) : (
          !running &&
          (!round || round.settled) &&
          s.waiting && (
            <p role="status" className="text-sm">
              {waitingText(s.waiting, (iso) =>
                new Date(iso).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', timeZone }),
              )}
            </p>
          )
        )}
        <p className="text-xs text-muted-foreground">
          Keys: Space starts or pauses; in a call, Esc ends it, 1–{DispositionSchema.options.length} choose a
          disposition, Enter saves it.
        </p>
      </section>
      <ActiveCallPanel
        inline
        keyboard
        onSaved={() => {
          if (wrapUp > 0) setWrapUntil(Date.now() + wrapUp * 1000);
        }}
      />
    </div>
  );
}

function AbandonmentLine({ state }: { state: ParallelState }) {
  const { last30Days, last24Hours } = state.abandonment;
  const rate = (p: number | null) => (p === null ? 'no live answers yet' : `${p} %`);
  return (
    <p className="text-sm" aria-label="Abandonment rate">
      Abandoned calls: <span className="font-medium">{rate(last30Days.percent)}</span> over 30 days (
      {last30Days.abandoned} of {last30Days.liveAnswers} live answers), {rate(last24Hours.percent)} in the
      last 24 h; cap {state.capPercent} %.
    </p>
  );
}

function RoundLines({ lines }: { lines: RoundLine[] }) {
  return (
    <ul aria-label="Lines" className="flex flex-col gap-1.5">
      {lines.map((line, i) => (
        <li
          key={line.callId}
          className="flex items-center justify-between gap-3 rounded border border-border px-3 py-2 text-sm"
        >
          <span>
            <span className="text-muted-foreground">Line {i + 1}</span>{' '}
            <span className="font-medium">
              {line.contact.firstName} {line.contact.lastName}
            </span>{' '}
            <span className="text-muted-foreground">
              {line.contact.phone ? formatPhoneForDisplay(line.contact.phone) : ''}
            </span>
          </span>
          <span>{lineText(line)}</span>
        </li>
      ))}
    </ul>
  );
}

function lineText(line: RoundLine): string {
  if (line.state === 'ringing')
    return line.status === 'ringing' ? 'Ringing' : line.status === 'failed' ? 'Failed' : 'Dialing';
  if (line.state === 'ended' && line.disposition)
    return DISPOSITION_LABELS[line.disposition as keyof typeof DISPOSITION_LABELS] ?? LINE_STATE_TEXT.ended;
  return LINE_STATE_TEXT[line.state];
}

/** Space typed into a field, or on a button (which it presses), is not the dialer's key. */
function isField(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    target instanceof HTMLButtonElement
  );
}
