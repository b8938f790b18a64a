import { z } from 'zod';
import { BulkSelectionSchema } from '../contacts/bulk-selection.schema.ts';

/** The reasons a contact of a bulk call is skipped. */
export const BULK_SKIP_REASONS = {
  sameNumbers: 'From and to numbers are the same',
  deduplication: 'Prevented by deduplication system',
  doNotCall: 'On your do-not-call list',
  deleted: 'The contact was deleted',
  canceled: 'Canceled',
} as const;

/** Call Selected: the selection, and optionally the caller ID to call from. */
export const StartBulkCallSchema = z.object({
  selection: BulkSelectionSchema,
  from: z.string().trim().max(40).optional(),
});
export type StartBulkCall = z.input<typeof StartBulkCallSchema>;

/** Bulk call summary: success, skipped and failed counts, and the errors with contact names. */
export const BulkCallSummarySchema = z.object({
  id: z.string(),
  status: z.enum(['running', 'done', 'canceled']),
  from: z.string(),
  /** Each call from the caller ID nearest its contact (decision 027); `from` is the fallback. */
  localPresence: z.boolean(),
  total: z.number().int(),
  pending: z.number().int(),
  success: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  /** Selected contacts left out for having no phone number ('N selected contact(s) don't have phone numbers.'). */
  withoutPhone: z.number().int(),
  errors: z.array(z.object({ contactName: z.string(), error: z.string() })),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type BulkCallSummary = z.infer<typeof BulkCallSummarySchema>;

/** The request id of the item at `position` of a job: the same on every retry, so a call is never placed twice. */
export function bulkRequestId(jobId: string, position: number): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (const ch of `${jobId}:${position}`) {
    h1 = Math.imul(h1 ^ ch.charCodeAt(0), 16777619) >>> 0;
    h2 = Math.imul(h2 ^ ch.charCodeAt(0), 2246822519) >>> 0;
  }
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let value = BigInt(h1) * 4294967296n + BigInt(h2);
  let id = '';
  for (let i = 0; i < 8; i++) {
    id += alphabet[Number(value % 36n)];
    value /= 36n;
  }
  return id;
}
