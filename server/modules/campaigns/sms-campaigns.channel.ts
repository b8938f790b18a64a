import {
  CreateSmsCampaignSchema,
  SMS_MESSAGES,
  SmsCampaignSchema,
  SmsRecipientsPageSchema,
  UpdateSmsCampaignSchema,
  type SmsCampaign,
} from '#domain/campaigns/sms-campaign.schema.ts';
import { requireAction, type ChannelRoutes } from './campaign-routes.ts';
import { insertRecipients } from './campaigns.repository.ts';
import {
  findSmsCampaigns,
  findSmsRecipients,
  getSmsCampaign,
  insertSmsCampaign,
  updateSmsCampaign,
} from './sms-campaigns.repository.ts';

/** SMS campaigns on the campaign routes (/api/sms-campaigns): contacts join a draft only. */
type SmsForm = { name: string; message: string; perMinute: number };

export const smsCampaignRoutes: ChannelRoutes<SmsCampaign, SmsForm> = {
  channel: 'sms',
  path: '/api/sms-campaigns',
  deleteFailed: SMS_MESSAGES.deleteFailed,
  schemas: {
    create: CreateSmsCampaignSchema,
    update: UpdateSmsCampaignSchema,
    campaign: SmsCampaignSchema,
    recipientsPage: SmsRecipientsPageSchema,
  },
  find: findSmsCampaigns,
  get: getSmsCampaign,
  insert: insertSmsCampaign,
  update: updateSmsCampaign,
  findRecipients: findSmsRecipients,
  addContacts: async (trx, userId, campaign, ids) => {
    requireAction(campaign, 'enroll');
    return insertRecipients(trx, 'sms', userId, campaign.id, ids);
  },
};
