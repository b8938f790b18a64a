import type { EmailCampaign } from '#domain/campaigns/email-campaign.schema.ts';

/** A campaign's status as the screens say it. */
export const STATUS_LABEL: Record<EmailCampaign['status'], string> = {
  draft: 'Draft',
  sending: 'Sending',
  paused: 'Paused',
  sent: 'Sent',
  canceled: 'Canceled',
};

/** A sequence sends over days: while under way it is active, and once everyone has had every e-mail, completed. */
const SEQUENCE_STATUS_LABEL: Record<EmailCampaign['status'], string> = {
  ...STATUS_LABEL,
  sending: 'Active',
  sent: 'Completed',
};

export const statusLabel = (campaign: Pick<EmailCampaign, 'status' | 'type'>) =>
  (campaign.type === 'sequence' ? SEQUENCE_STATUS_LABEL : STATUS_LABEL)[campaign.status];

/** Where a campaign's own page is: sequences and one-time campaigns have their own routes (spec part 2 §2.1). */
export const campaignPath = (campaign: Pick<EmailCampaign, 'id' | 'type'>) =>
  campaign.type === 'sequence'
    ? `/projects/email-sequence/edit/${campaign.id}`
    : `/projects/email/edit/${campaign.id}`;
