import type { ContactStatus } from './contact.schema.ts';

/**
 * A contact's derived flags, from the contact and its latest call disposition. The database keeps the
 * same rules as generated columns (migration 0002) so the list can filter and count on them; a test checks that
 * both agree.
 *  - needs attention: status new; or notes contain 'follow up' or 'callback' (any case); or the latest disposition
 *    is call-back (decision 000: part 1's "callback", and legacy "interested", count the same);
 *  - qualified: the latest disposition is marked qualified or is 'qualified'; or status is active.
 */
export const ATTENTION_DISPOSITIONS = ['call-back', 'callback', 'interested'] as const;
export const ATTENTION_NOTE_PATTERN = /follow up|callback/i;

export type FlagInput = {
  status: ContactStatus;
  notes: string | null;
  latestDisposition: string | null;
  latestDispositionQualified: boolean | null;
};

export function needsAttention(c: FlagInput): boolean {
  return (
    c.status === 'new' ||
    ATTENTION_NOTE_PATTERN.test(c.notes ?? '') ||
    (c.latestDisposition !== null &&
      (ATTENTION_DISPOSITIONS as readonly string[]).includes(c.latestDisposition))
  );
}

export function isQualified(c: FlagInput): boolean {
  return (
    c.latestDispositionQualified === true || c.latestDisposition === 'qualified' || c.status === 'active'
  );
}
