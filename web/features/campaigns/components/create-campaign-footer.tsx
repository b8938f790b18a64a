import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { CampaignChannel, CampaignType } from '#domain/campaigns/campaign-state.ts';
import { Button } from '../../../components/ui/button.tsx';
import { PROJECTS_CAMPAIGNS } from './campaign-checks.ts';
import { campaignPath } from './campaign-status.ts';

/** Cancel, and the create button: disabled while the name is empty, no contact is chosen, or the request is pending. */
export function CreateCampaignFooter(props: { label: string; disabled: boolean; onCreate: () => void }) {
  return (
    <div className="flex justify-end gap-2 border-t border-border pt-4">
      <Button variant="outline" asChild>
        <Link to={PROJECTS_CAMPAIGNS}>Cancel</Link>
      </Button>
      <Button onClick={props.onCreate} disabled={props.disabled}>
        {props.label}
      </Button>
    </div>
  );
}

/** After Create: the toast, then the new campaign's own page, where Send is. */
export function useOpenCreated(channel: CampaignChannel) {
  const navigate = useNavigate();
  return (campaign: { id: string; name: string; type?: CampaignType; counts: { total: number } }) => {
    const sequence = campaign.type === 'sequence';
    toast.success(sequence ? 'Sequence created' : 'Campaign created', {
      description: `${campaign.name}: ${campaign.counts.total.toLocaleString()} contact(s). Review it and press ${sequence ? 'Start' : 'Send'} when ready.`,
    });
    void navigate(campaignPath(channel, campaign), { state: { campaignName: campaign.name } });
  };
}
