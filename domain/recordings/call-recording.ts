import { z } from 'zod';
import { RecordingDisclosureSchema } from './recording-disclosure.schema.ts';

/** How long recordings are kept unless the user says otherwise, and the bounds they may choose within. */
export const DEFAULT_RETENTION_DAYS = 90;
export const MAX_RETENTION_DAYS = 3650;

/**
 * Settings → Phone → Call recording (decision 030): off by default; when on, every call the user places is recorded
 * (after the disclosure where the law needs one). Voicemails and call recordings older than the retention are
 * deleted by a daily job.
 */
export const RecordingSettingsSchema = z.object({
  recordCalls: z.boolean(),
  retentionDays: z
    .number()
    .int('Whole days only')
    .min(1, 'Keep recordings at least 1 day')
    .max(MAX_RETENTION_DAYS, `Keep recordings at most ${MAX_RETENTION_DAYS} days`),
});
export type RecordingSettings = z.infer<typeof RecordingSettingsSchema>;

export const RecordingSettingsResponseSchema = z.object({
  settings: RecordingSettingsSchema,
  /** The all-party-consent states, with their law, as the settings explain them. */
  allPartyStates: z.array(RecordingDisclosureSchema),
});
