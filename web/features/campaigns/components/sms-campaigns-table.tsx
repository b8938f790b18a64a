import type { SmsCampaign } from '#domain/campaigns/sms-campaign.schema.ts';
import { useDeleteSmsCampaign } from '../api/sms-campaigns-queries.ts';
import { STATUS_LABEL } from './campaign-status.ts';
import { CampaignTable } from './campaign-table.tsx';

/** The Campaigns tab's SMS table (spec part 2 §2.2): Name, Created, progress and status, Actions. */
export function SmsCampaignsTable({ campaigns }: { campaigns: SmsCampaign[] }) {
  const remove = useDeleteSmsCampaign();
  return (
    <CampaignTable
      label="SMS campaigns"
      emptyTitle="No SMS campaigns found"
      remove={remove}
      deleteDescription="The campaign and its recipient list go."
      rows={campaigns.map((c) => ({
        ...c,
        status: STATUS_LABEL[c.status],
        path: `/projects/sms/edit/${c.id}`,
      }))}
    />
  );
}
