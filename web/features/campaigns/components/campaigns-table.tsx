import type { CampaignChannel } from '#domain/campaigns/campaign-state.ts';
import { useDeleteCampaign, type CampaignOf } from '../api/campaign-queries.ts';
import { campaignPath, statusLabel } from './campaign-status.ts';
import { CampaignTable } from './campaign-table.tsx';

const WORDS = {
  email: {
    label: 'Email campaigns',
    emptyTitle: 'No email campaigns found',
    deleteDescription: 'The campaign and its recipient list go; e-mails already sent stay on each contact.',
  },
  sms: {
    label: 'SMS campaigns',
    emptyTitle: 'No SMS campaigns found',
    deleteDescription: 'The campaign and its recipient list go.',
  },
} as const;

/**
 * A table of the Campaigns tab for one channel: Name, (Type: the Emails table says Sequence or Campaign,)
 * Created, progress and status, Actions.
 */
export function CampaignsTable<K extends CampaignChannel>(props: { channel: K; campaigns: CampaignOf<K>[] }) {
  const remove = useDeleteCampaign(props.channel);
  return (
    <CampaignTable
      {...WORDS[props.channel]}
      remove={remove}
      rows={props.campaigns.map((c) => {
        const type = 'type' in c ? c.type : undefined;
        return {
          id: c.id,
          name: c.name,
          createdAt: c.createdAt,
          counts: c.counts,
          status: statusLabel({ status: c.status, ...(type && { type }) }),
          path: campaignPath(props.channel, c),
          ...(type && { type: type === 'sequence' ? 'Sequence' : 'Campaign' }),
        };
      })}
    />
  );
}
