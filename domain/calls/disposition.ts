import { z } from 'zod';
import { isPastDay } from '../time/zoned-time.ts';

/**
 * Dispositions (decision 000 "Disposition spellings"): part 2's eight values; callback and
 * interested are accepted from legacy data only. Qualified sets is_qualified.
 */
export const DispositionSchema = z.enum([
  'answered',
  'no-answer',
  'busy',
  'voicemail',
  'call-back',
  'not-interested',
  'qualified',
  'do-not-call',
]);
export type Disposition = z.infer<typeof DispositionSchema>;

export const DISPOSITION_LABELS: Record<Disposition, string> = {
  answered: 'Answered',
  'no-answer': 'No Answer',
  busy: 'Busy',
  voicemail: 'Voicemail',
  'call-back': 'Call Back',
  'not-interested': 'Not Interested',
  qualified: 'Qualified Lead',
  'do-not-call': 'Do Not Call',
};

/** Lead qualification, cold by default. */
export const LeadQualificationSchema = z.enum(['cold', 'warm', 'hot', 'qualified', 'client']);
export type LeadQualification = z.infer<typeof LeadQualificationSchema>;

/** decision 000 "Answered": a call connected to a person. */
const ANSWERED_DISPOSITIONS = new Set([
  'answered',
  'call-back',
  'callback',
  'not-interested',
  'qualified',
  'do-not-call',
  'interested',
]);

/**
 * Whether a call was answered: when it has a disposition, the disposition decides (voicemail is not answered even if
 * the provider reported in-progress); otherwise it was answered if the provider reported it connected.
 */
export function isAnswered(call: { disposition: string | null; connected: boolean }): boolean {
  if (call.disposition) return ANSWERED_DISPOSITIONS.has(call.disposition);
  return call.connected;
}

/**
 * Saving a disposition: a contact, a disposition and a user are needed; for call-back, a callback date that is not
 * on a day past in the user's zone (today is allowed). The Save button shows only when these allow it, and the
 * server checks the same with the same function.
 */
export function canSaveDisposition(
  input: { disposition: Disposition | null; callbackDate: Date | null; hasContact: boolean },
  now: Date,
  timeZone: string,
): boolean {
  if (!input.disposition || !input.hasContact) return false;
  if (input.disposition !== 'call-back') return true;
  return input.callbackDate !== null && !isPastDay(input.callbackDate, now, timeZone);
}
