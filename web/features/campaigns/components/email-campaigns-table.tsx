import type { EmailCampaign } from '#domain/campaigns/email-campaign.schema.ts';
import { useDeleteEmailCampaign } from '../api/email-campaigns-queries.ts';
import { campaignPath, statusLabel } from './campaign-status.ts';
import { CampaignTable } from './campaign-table.tsx';

/** The Campaigns tab's Emails table (spec part 2 §2.2): Name, Type, Created, progress and status, Actions. */
export function EmailCampaignsTable({ campaigns }: { campaigns: EmailCampaign[] }) {
  const remove = useDeleteEmailCampaign();
  return (
    <CampaignTable
      label="Email campaigns"
      emptyTitle="No email campaigns found"
      remove={remove}
      deleteDescription="The campaign and its recipient list go; e-mails already sent stay on each contact."
      rows={campaigns.map((c) => ({
        ...c,
        status: statusLabel(c),
        path: campaignPath(c),
        type: c.type === 'sequence' ? 'Sequence' : 'Campaign',
      }))}
    />
  );
}
