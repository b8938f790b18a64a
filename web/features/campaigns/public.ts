/** Campaigns as other features use them: the e-mail campaigns list and table, and adding contacts to a draft (Send to Campaign). Other features import this file, never the feature's other files (decision 013). */
export { useAddToEmailCampaign, useEmailCampaigns } from './api/email-campaigns-queries.ts';
export { EmailCampaignsTable } from './components/email-campaigns-table.tsx';
