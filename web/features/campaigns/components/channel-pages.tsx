import { CampaignPage } from './campaign-page.tsx';
import { emailParts } from './email-channel.tsx';
import { smsParts } from './sms-channel.tsx';

/** /projects/email/edit/{id} and /projects/email-sequence/edit/{id}: the campaign page with e-mail's parts. */
export const EmailCampaignPage = () => <CampaignPage parts={emailParts} />;

/** /projects/sms/edit/{id}: the campaign page with SMS's parts. */
export const SmsCampaignPage = () => <CampaignPage parts={smsParts} />;
