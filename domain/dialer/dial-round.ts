import { z } from 'zod';
import type { AnsweredBy } from '../calls/answered-by.ts';
import type { CallStatus } from '../calls/call-status.ts';
import type { Disposition } from '../calls/disposition.ts';

/**
 * One round of parallel dialing (decision 026): the lines rung at once for one rep, and what happens to each as the
 * provider reports it. Pure: the server applies the actions (hang up, connect, play the identification message,
 * save a disposition, release or complete the queue member) and keeps the round's winner with one conditional
 * update, so two instances never connect two calls.
 */
export const LineStateSchema = z.enum([
  'ringing',
  /** Answered, detection not yet told (a person or a machine). */
  'answered',
  'connected',
  /** Hung up while ringing, because another line reached the rep: back to the queue, not called. */
  'released',
  'abandoned',
  'machine',
  'ended',
]);
export type LineState = z.infer<typeof LineStateSchema>;

export type Round = { lines: Record<string, LineState>; connected: string | null };

export type LineEvent =
  | { line: string; kind: 'status'; status: CallStatus }
  | { line: string; kind: 'detected'; answeredBy: AnsweredBy };

export type RoundAction =
  | { do: 'connect'; line: string }
  | { do: 'hang-up'; line: string; then: 'release' | 'abandon-message' | 'dispose' }
  | { do: 'dispose'; line: string; disposition: Disposition }
  | { do: 'complete'; line: string }
  /** The contact goes back to the queue, not called (a call we ended: a pause, a release, a server that died). */
  | { do: 'release'; line: string };

const ENDED_DISPOSITION: Partial<Record<CallStatus, Disposition>> = {
  busy: 'busy',
  'no-answer': 'no-answer',
  failed: 'no-answer',
};

/**
 * What a line's event does to the round. The first answer holds the round: every line still ringing is released at
 * once (back to the queue), so a second person can only be reached in the instant before the release arrives. A
 * person detected while no line is connected is connected; a person detected once another is connected is
 * abandoned (the identification message, then the end). A machine is hung up and gets Voicemail. A line that ends
 * unanswered gets busy or no answer. Events for a line already settled change nothing (providers repeat themselves).
 */
export function onLineEvent(round: Round, event: LineEvent): { round: Round; actions: RoundAction[] } {
  const state = round.lines[event.line];
  if (state === undefined) return { round, actions: [] };
  const lines = { ...round.lines };
  const actions: RoundAction[] = [];
  const settle = (line: string, next: LineState) => (lines[line] = next);

  if (event.kind === 'status') {
    if (event.status === 'in-progress' && state === 'ringing') return onAnswers(round, [event.line]);
    // Answered as the release reached it: a person was hung up on, which counts as abandoned (the contact stays in
    // the queue; the consent gate holds the number for 72 hours).
    else if (event.status === 'in-progress' && state === 'released') settle(event.line, 'abandoned');
    else if (event.status === 'canceled' && (state === 'ringing' || state === 'answered')) {
      // Ended by us before anyone was reached (or by the janitor, its server having died): back to the queue.
      actions.push({ do: 'release', line: event.line });
      settle(event.line, 'released');
    } else if (['completed', 'busy', 'no-answer', 'failed'].includes(event.status)) {
      if (state === 'ringing') {
        const disposition = ENDED_DISPOSITION[event.status] ?? 'no-answer';
        actions.push({ do: 'dispose', line: event.line, disposition }, { do: 'complete', line: event.line });
        settle(event.line, 'ended');
      } else if (state === 'answered') {
        // Hung up before detection spoke: nobody reached the rep.
        actions.push(
          { do: 'dispose', line: event.line, disposition: 'no-answer' },
          { do: 'complete', line: event.line },
        );
        settle(event.line, 'ended');
      } else if (state === 'connected') settle(event.line, 'ended');
    }
    return { round: { ...round, lines }, actions };
  }

  if (state !== 'answered' && state !== 'ringing') return { round, actions: [] };
  if (event.answeredBy === 'machine' || event.answeredBy === 'fax') {
    actions.push(
      { do: 'hang-up', line: event.line, then: 'dispose' },
      {
        do: 'dispose',
        line: event.line,
        disposition: event.answeredBy === 'machine' ? 'voicemail' : 'no-answer',
      },
      { do: 'complete', line: event.line },
    );
    settle(event.line, 'machine');
    return { round: { ...round, lines }, actions };
  }
  // A person (or detection could not tell: treated as a person, never hung up on).
  if (round.connected === null) {
    actions.push({ do: 'connect', line: event.line });
    settle(event.line, 'connected');
    for (const [line, other] of Object.entries(lines))
      if (line !== event.line && other === 'ringing') {
        actions.push({ do: 'hang-up', line, then: 'release' });
        settle(line, 'released');
      }
    return { round: { lines, connected: event.line }, actions };
  }
  actions.push(
    { do: 'hang-up', line: event.line, then: 'abandon-message' },
    { do: 'complete', line: event.line },
  );
  settle(event.line, 'abandoned');
  return { round: { ...round, lines }, actions };
}

/** The round is over when no line is ringing or waiting for detection (the connected call may go on). */
export function roundSettled(round: Round): boolean {
  return Object.values(round.lines).every((s) => s !== 'ringing' && s !== 'answered');
}

/**
 * Pause (or the rep leaving): every line still ringing is hung up and its contact goes back to the queue. A line
 * already answered is left to detection: a person who picked up is connected, never dropped.
 */
export function pauseRound(round: Round): { round: Round; actions: RoundAction[] } {
  const lines = { ...round.lines };
  const actions: RoundAction[] = [];
  for (const [line, state] of Object.entries(lines))
    if (state === 'ringing') {
      actions.push({ do: 'hang-up', line, then: 'release' });
      lines[line] = 'released';
    }
  return { round: { ...round, lines }, actions };
}

/**
 * Lines answered (one event, or several the server learns of at once): each is waiting for detection, and every
 * line still ringing is released, so nobody else picks up while the answered ones are told apart.
 */
export function onAnswers(round: Round, answered: string[]): { round: Round; actions: RoundAction[] } {
  const lines = { ...round.lines };
  const actions: RoundAction[] = [];
  const picked = answered.filter((line) => lines[line] === 'ringing');
  if (picked.length === 0) return { round, actions };
  for (const line of picked) lines[line] = 'answered';
  for (const [line, state] of Object.entries(lines))
    if (state === 'ringing') {
      actions.push({ do: 'hang-up', line, then: 'release' });
      lines[line] = 'released';
    }
  return { round: { ...round, lines }, actions };
}
