import { z } from 'zod';
import { escapeCell } from '../text/spreadsheet-cells.ts';
import { usDay } from '../time/zoned-time.ts';

/** One line of a contact's consent record: a decision the gate took, or a change to an opt-out. */
export const ConsentEntrySchema = z.object({
  at: z.string(),
  channel: z.enum(['call', 'text', 'campaign-email', 'email', 'prerecorded']),
  outcome: z.enum(['allowed', 'refused', 'waiting', 'opted-out', 'opted-in']),
  reason: z.string().nullable(),
  number: z.string().nullable(),
  facts: z.record(z.string(), z.unknown()),
});
export type ConsentEntry = z.infer<typeof ConsentEntrySchema>;

/** The opt-outs that stand now, as the record's first lines say them. */
export const StandingOptOutsSchema = z.object({
  doNotCallSince: z.string().nullable(),
  textOptOutSince: z.string().nullable(),
  unsubscribedSince: z.string().nullable(),
  /** The express consent that stands (not an opt-out, but the record's first lines say it too). */
  expressConsent: z.object({ givenOn: z.string(), source: z.string(), recordedAt: z.string() }).nullable(),
});
export type StandingOptOuts = z.infer<typeof StandingOptOutsSchema>;

export const ConsentRecordSchema = z.object({
  standing: StandingOptOutsSchema,
  entries: z.array(ConsentEntrySchema),
});
export type ConsentRecord = z.infer<typeof ConsentRecordSchema>;

export const OUTCOME_LABELS: Record<ConsentEntry['outcome'], string> = {
  allowed: 'Allowed',
  refused: 'Refused',
  waiting: 'Made to wait',
  'opted-out': 'Opted out',
  'opted-in': 'Opted in',
};
export const CHANNEL_LABELS: Record<ConsentEntry['channel'], string> = {
  call: 'Call',
  text: 'Text',
  'campaign-email': 'Campaign e-mail',
  email: 'E-mail',
  prerecorded: 'Prerecorded message',
};

export const CONSENT_RECORD_HEADER = [
  'When (UTC)',
  'Channel',
  'Outcome',
  'Reason',
  'Number',
  'Time zones',
  'State',
  'Facts',
];

const csvCell = (value: string) => {
  const safe = escapeCell(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/**
 * A contact's consent record as CSV, for a lawyer as much as a spreadsheet: the opt-outs that stand now, then every
 * decision and opt-out change, newest first, each with the facts it used.
 */
export function consentRecordCsv(record: ConsentRecord): string {
  const standing: string[][] = [];
  const { doNotCallSince, textOptOutSince, unsubscribedSince } = record.standing;
  if (doNotCallSince)
    standing.push([
      doNotCallSince,
      'Call',
      'Opted out',
      'On the do-not-call list (standing now)',
      '',
      '',
      '',
      '',
    ]);
  if (textOptOutSince)
    standing.push([
      textOptOutSince,
      'Text',
      'Opted out',
      'Texted an opt-out word (standing now)',
      '',
      '',
      '',
      '',
    ]);
  if (unsubscribedSince)
    standing.push([
      unsubscribedSince,
      'Campaign e-mail',
      'Opted out',
      'Unsubscribed (standing now)',
      '',
      '',
      '',
      '',
    ]);
  const consent = record.standing.expressConsent;
  if (consent)
    standing.push([
      consent.recordedAt,
      'Call and text',
      'Opted in',
      `Express consent given ${usDay(consent.givenOn)} (${consent.source}) (standing now)`,
      '',
      '',
      '',
      '',
    ]);
  const lines = record.entries.map((e) => [
    e.at,
    CHANNEL_LABELS[e.channel],
    OUTCOME_LABELS[e.outcome],
    e.reason ?? '',
    e.number ?? '',
    Array.isArray(e.facts.zones) ? (e.facts.zones as string[]).join(' ') : '',
    typeof e.facts.state === 'string' ? e.facts.state : '',
    JSON.stringify(e.facts),
  ]);
  return `\uFEFF${[CONSENT_RECORD_HEADER, ...standing, ...lines].map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

/** consent_record_{first}_{last}_{YYYY-MM-DD}.csv, with only safe characters. */
export function consentRecordFileName(name: string, at: Date): string {
  const safe =
    name
      .trim()
      .replace(/[^A-Za-z0-9]+/g, '_')
      .replace(/^_|_$/g, '') || 'contact';
  return `consent_record_${safe}_${at.toISOString().slice(0, 10)}.csv`;
}
