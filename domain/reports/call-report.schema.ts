import { z } from 'zod';
import { CallDirectionSchema } from '../calls/call-status.ts';
import { KeysetPositionSchema } from '../paging/keyset-position.schema.ts';

/**
 * The Call Reports page ("Call Reports page (/reports/dashboard)"): the user's calls,
 * newest first, filtered by a text over contact id, notes and outcome, and exported as call_reports.csv.
 */
export const CALL_REPORT_COLUMNS = [
  'Call ID',
  'Contact ID',
  'Project ID',
  'Outcome',
  'Notes',
  'Created At',
  'Direction',
] as const;
export const CALL_REPORTS_FILE = 'call_reports.csv';

export const CallReportsQuerySchema = z.object({
  search: z.string().trim().max(200, 'A filter has at most 200 characters').optional(),
  /** Where the page starts: the `next` of the page before. */
  after: KeysetPositionSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const CallReportsExportQuerySchema = CallReportsQuerySchema.pick({ search: true });

export const CallReportSchema = z.object({
  callId: z.string(),
  contactId: z.string().nullable(),
  projectId: z.string().nullable(),
  /**
   * The call's disposition when one was saved for it, else 'abandoned' for a live answer no rep took in time, else
   * 'missed' for a call that came in and nobody answered, else how the call itself ended (its provider status).
   */
  outcome: z.string(),
  /** Placed by the user, or come in to one of their numbers. */
  direction: CallDirectionSchema,
  notes: z.string().nullable(),
  createdAt: z.string(),
});
export type CallReport = z.infer<typeof CallReportSchema>;
export const CallReportsPageSchema = z.object({
  reports: z.array(CallReportSchema),
  next: z.string().nullable(),
});
