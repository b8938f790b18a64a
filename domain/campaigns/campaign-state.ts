import { z } from 'zod';

/**
 * What every campaign shares, whatever it sends (e-mail or text message): where it stands, what may be done with it
 * from there, and where each of its recipients stands.
 */
export const CampaignChannelSchema = z.enum(['email', 'sms']);
export type CampaignChannel = z.infer<typeof CampaignChannelSchema>;

export const CampaignStatusSchema = z.enum(['draft', 'sending', 'paused', 'sent', 'canceled']);
export type CampaignStatus = z.infer<typeof CampaignStatusSchema>;

/** A one-time campaign sends one message to each contact; a sequence (e-mail only) sends several over days. */
export type CampaignType = 'campaign' | 'sequence';

/**
 * A recipient's state: queued until its turn, 'sending' while the message is handed over (committed before, so a
 * crash is seen), then sent, failed (the server or provider refused it), skipped (with why), or unconfirmed (the
 * hand-over was cut off: it may or may not have gone, so it is never sent again).
 */
export const RecipientStateSchema = z.enum(['queued', 'sending', 'sent', 'failed', 'skipped', 'unconfirmed']);
export type RecipientState = z.infer<typeof RecipientStateSchema>;

export const RecipientCountsSchema = z.object({
  total: z.number().int(),
  queued: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  unconfirmed: z.number().int(),
});
export type RecipientCounts = z.infer<typeof RecipientCountsSchema>;

export const EMPTY_COUNTS: RecipientCounts = {
  total: 0,
  queued: 0,
  sent: 0,
  failed: 0,
  skipped: 0,
  unconfirmed: 0,
};

/** Remaining = queued; percent done = everything that has an outcome (sent, failed, skipped, unconfirmed). */
export function campaignProgress(counts: RecipientCounts): { done: number; percent: number } {
  const done = counts.total - counts.queued;
  return { done, percent: counts.total === 0 ? 0 : Math.round((done / counts.total) * 100) };
}

export const CAMPAIGN_TRANSITIONS = ['send', 'pause', 'resume', 'cancel'] as const;
export type CampaignTransition = (typeof CAMPAIGN_TRANSITIONS)[number];

/** The status each transition leads to. */
export const STATUS_AFTER: Record<CampaignTransition, CampaignStatus> = {
  send: 'sending',
  pause: 'paused',
  resume: 'sending',
  cancel: 'canceled',
};

/**
 * The actions a campaign's state allows. Contacts join a one-time campaign only while it is a draft; they join a
 * sequence until it is canceled (a finished sequence starts again for them), and leave one that has started.
 */
export function campaignActions(status: CampaignStatus, type: CampaignType = 'campaign') {
  return {
    edit: status === 'draft',
    enroll: type === 'sequence' ? status !== 'canceled' : status === 'draft',
    leave: type === 'sequence' && (status === 'sending' || status === 'paused' || status === 'sent'),
    send: status === 'draft',
    pause: status === 'sending',
    resume: status === 'paused',
    cancel: status === 'sending' || status === 'paused',
  };
}

/** Why a recipient got nothing, for reasons every channel shares. */
export const COMMON_SKIP_REASONS = {
  deleted: 'Contact deleted',
  canceled: 'Campaign canceled',
} as const;

/** What a recipient whose hand-over was cut off says (`what`: 'e-mail', 'message'). */
export const unconfirmedReason = (what: string, to: string) =>
  `The server stopped while this ${what} was being handed to ${to}. It may or may not have been sent, so it was not sent again.`;
