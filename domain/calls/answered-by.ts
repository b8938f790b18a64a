import { z } from 'zod';
import type { Disposition } from './disposition.ts';

/**
 * Who answered a call, as answering-machine detection tells it (decision 025): a person, a machine (voicemail, an
 * answering service), a fax, or unknown (detection could not tell).
 */
export const AnsweredBySchema = z.enum(['human', 'machine', 'fax', 'unknown']);
export type AnsweredBy = z.infer<typeof AnsweredBySchema>;

/**
 * Twilio's AnsweredBy values (https://www.twilio.com/docs/voice/answering-machine-detection): `human`;
 * `machine_start` (MachineDetection=Enable) or `machine_end_beep` / `machine_end_silence` / `machine_end_other`
 * (DetectMessageEnd); `fax`; `unknown`. Anything else is not a detection result.
 */
const TWILIO_ANSWERED_BY: Record<string, AnsweredBy> = {
  human: 'human',
  machine_start: 'machine',
  machine_end_beep: 'machine',
  machine_end_silence: 'machine',
  machine_end_other: 'machine',
  fax: 'fax',
  unknown: 'unknown',
};

export function answeredByOf(twilioValue: string | undefined): AnsweredBy | null {
  return (
    (twilioValue && Object.hasOwn(TWILIO_ANSWERED_BY, twilioValue) && TWILIO_ANSWERED_BY[twilioValue]) || null
  );
}

/** What the call panel says once detection has spoken; nothing for a person (the rep hears them). */
export const ANSWERED_BY_NOTICE: Record<AnsweredBy, string | null> = {
  human: null,
  machine: 'Answered by a machine (voicemail)',
  fax: 'Answered by a fax machine',
  unknown: null,
};

/** The short word for a call's history (the contact page's calls); nothing for a person. */
export const ANSWERED_BY_BADGE: Record<AnsweredBy, string | null> = {
  human: null,
  machine: 'Answering machine',
  fax: 'Fax',
  unknown: null,
};

/**
 * The outcome proposed for a call that detection says no person answered: the rep keeps the last word (another
 * choice replaces it). A machine is a voicemail; a fax reaches nobody.
 */
export function suggestedDisposition(answeredBy: AnsweredBy | null | undefined): Disposition | null {
  if (answeredBy === 'machine') return 'voicemail';
  if (answeredBy === 'fax') return 'no-answer';
  return null;
}
