import type { CampaignStatus, CampaignType } from '#domain/campaigns/campaign-state.ts';

/** A campaign's status as the screens say it. */
export const STATUS_LABEL: Record<CampaignStatus, string> = {
  draft: 'Draft',
  sending: 'Sending',
  paused: 'Paused',
  sent: 'Sent',
  canceled: 'Canceled',
};

/** A sequence sends over days: while under way it is active, and once everyone has had every e-mail, completed. */
const SEQUENCE_STATUS_LABEL: Record<CampaignStatus, string> = {
  ...STATUS_LABEL,
  sending: 'Active',
  sent: 'Completed',
};

export const statusLabel = (campaign: { status: CampaignStatus; type?: CampaignType }) =>
  (campaign.type === 'sequence' ? SEQUENCE_STATUS_LABEL : STATUS_LABEL)[campaign.status];

/** Where a campaign's own page is: sequences, one-time e-mail campaigns and SMS campaigns have their own routes. */
export const campaignPath = (channel: 'email' | 'sms', campaign: { id: string; type?: CampaignType }) =>
  channel === 'sms'
    ? `/projects/sms/edit/${campaign.id}`
    : campaign.type === 'sequence'
      ? `/projects/email-sequence/edit/${campaign.id}`
      : `/projects/email/edit/${campaign.id}`;
