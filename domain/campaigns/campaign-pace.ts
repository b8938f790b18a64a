import { z } from 'zod';

/** The pace of a send, in e-mails per minute (a mail server or provider limits how fast it accepts mail). */
export const PACE = { min: 1, max: 3_000, default: 60 } as const;

/**
 * A user's sending limits: at most this many campaign e-mails, and text messages, a minute across all their
 * campaigns (null: each campaign's own pace alone). Mail servers and SMS providers limit an account, not a campaign.
 */
export const SendingLimitsSchema = z.object({
  emailPerMinute: z.number().int().min(PACE.min).max(PACE.max).nullable(),
  smsPerMinute: z.number().int().min(PACE.min).max(PACE.max).nullable(),
});
export type SendingLimits = z.infer<typeof SendingLimitsSchema>;

/** The pace a campaign really sends at: its own, held under the user's limit. */
export const effectivePace = (campaignPerMinute: number, limit: number | null) =>
  limit === null ? campaignPerMinute : Math.min(campaignPerMinute, limit);
