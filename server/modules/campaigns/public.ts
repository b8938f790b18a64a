/** Campaigns as the other modules use them: the job that sends an e-mail campaign. Other modules import this file, never the module's other files (decision 013). */
export { EMAIL_CAMPAIGN_TASK, campaignSendTask } from './email-campaign-send.ts';
