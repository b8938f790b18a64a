import { z } from 'zod';
import type { CampaignChannel } from './campaign-state.ts';

/** The pace of a send, in messages per minute (a mail server or provider limits how fast it accepts them). */
export const PACE = { min: 1, max: 3_000, default: 60 } as const;

export const PerMinuteSchema = z.number().int().min(PACE.min).max(PACE.max);

/**
 * A user's sending limits: at most this many campaign e-mails, and text messages, a minute across all their
 * campaigns (null: each campaign's own pace alone). Mail servers and SMS providers limit an account, not a campaign.
 */
export const SendingLimitsSchema = z.object({
  emailPerMinute: PerMinuteSchema.nullable(),
  smsPerMinute: PerMinuteSchema.nullable(),
});
export type SendingLimits = z.infer<typeof SendingLimitsSchema>;

/** The user's limit for one channel. */
export const limitFor = (limits: SendingLimits, channel: CampaignChannel) =>
  channel === 'email' ? limits.emailPerMinute : limits.smsPerMinute;

/** The pace a campaign really sends at: its own, held under the user's limit. */
export const effectivePace = (campaignPerMinute: number, limit: number | null) =>
  limit === null ? campaignPerMinute : Math.min(campaignPerMinute, limit);

/** The time between two messages at a pace. */
export const spacingMs = (perMinute: number) => 60_000 / perMinute;

/**
 * When the next message may go at a pace, after the last one went at `last` (none yet: at once, `null`). A time
 * not after `now` means now.
 */
export function nextSlot(last: Date | null, perMinute: number, now: Date): Date | null {
  if (!last) return null;
  const free = last.getTime() + spacingMs(perMinute);
  return free > now.getTime() ? new Date(free) : null;
}
