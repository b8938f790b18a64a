import {
  CreateEmailCampaignSchema,
  EMAIL_CAMPAIGN_MESSAGES,
  EmailCampaignSchema,
  RecipientsPageSchema,
  UpdateEmailCampaignSchema,
  type EmailCampaign,
} from '#domain/campaigns/email-campaign.schema.ts';
import { AppError } from '../../errors/app-error.ts';
import type { ChannelRoutes } from './campaign-routes.ts';
import {
  findEmailCampaigns,
  findRecipients,
  getEmailCampaign,
  insertEmailCampaign,
  updateEmailCampaign,
} from './email-campaigns.repository.ts';
import { enrollInSequence } from './email-sequence-enrolment.ts';
import { startSequence } from './email-sequences.repository.ts';

/**
 * E-mail campaigns and sequences on the campaign routes (/api/email-campaigns). A sequence is a campaign of type
 * 'sequence': read, sent, paused, resumed, canceled and deleted here, created and saved through
 * /api/email-sequences (its e-mails are steps, not one message); contacts join it until it is canceled.
 */
type EmailForm = { name: string; subject: string; body: string; perMinute: number };

export const emailCampaignRoutes: ChannelRoutes<EmailCampaign, EmailForm> = {
  channel: 'email',
  path: '/api/email-campaigns',
  deleteFailed: EMAIL_CAMPAIGN_MESSAGES.deleteFailedServer,
  schemas: {
    create: CreateEmailCampaignSchema,
    update: UpdateEmailCampaignSchema,
    campaign: EmailCampaignSchema,
    recipientsPage: RecipientsPageSchema,
  },
  find: findEmailCampaigns,
  get: getEmailCampaign,
  insert: insertEmailCampaign,
  update: updateEmailCampaign,
  findRecipients,
  addContacts: enrollInSequence,
  checkSave: (campaign) => {
    if (campaign.type === 'sequence') throw new AppError('CONFLICT', EMAIL_CAMPAIGN_MESSAGES.isSequence);
  },
  onSend: async (trx, campaign, now) => {
    if (campaign.type === 'sequence') await startSequence(trx, campaign.id, now);
  },
};
