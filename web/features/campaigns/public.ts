/** Campaigns as other features use them: the e-mail and SMS campaign lists and tables, adding contacts to a draft or a sequence (Send to Campaign), and the sending-limit settings. Other features import this file, never the feature's other files (decision 013). */
export { useAddToEmailCampaign, useEmailCampaigns } from './api/email-campaigns-queries.ts';
export { EmailCampaignsTable } from './components/email-campaigns-table.tsx';
export { useAddToSmsCampaign, useSmsCampaigns } from './api/sms-campaigns-queries.ts';
export { SmsCampaignsTable } from './components/sms-campaigns-table.tsx';
export { SendingLimitCard } from './components/sending-limit-card.tsx';
