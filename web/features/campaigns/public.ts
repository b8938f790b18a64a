/** Campaigns as other features use them: each channel's campaign list and table, adding contacts to a draft or a sequence (Send to Campaign), and the sending-limit settings. Other features import this file, never the feature's other files (decision 013). */
export { useAddToCampaign, useCampaigns } from './api/campaign-queries.ts';
export { CampaignsTable } from './components/campaigns-table.tsx';
export { SendingLimitCard } from './components/sending-limit-card.tsx';
