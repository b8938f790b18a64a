import type { EmailCampaign } from '#domain/campaigns/email-campaign.schema.ts';

/** A campaign's status as the screens say it. */
export const STATUS_LABEL: Record<EmailCampaign['status'], string> = {
  draft: 'Draft',
  sending: 'Sending',
  paused: 'Paused',
  sent: 'Sent',
  canceled: 'Canceled',
};
