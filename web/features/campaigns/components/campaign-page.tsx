import { useState } from 'react';
import { useParams } from 'react-router';
import { toast } from 'sonner';
import { campaignActions, campaignProgress, type CampaignChannel } from '#domain/campaigns/campaign-state.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { selectionSize, toBulkSelection, type ContactSelection } from '../../contacts/public.ts';
import { SelectionPicker } from '../../queues/public.ts';
import {
  useCampaign,
  useCampaignAction,
  useDeleteCampaign,
  type CampaignOf,
} from '../api/campaign-queries.ts';
import type { ChannelParts } from './campaign-channel.ts';
import { CampaignControls, CampaignLoadFailed } from './campaign-controls.tsx';
import type { CampaignForm } from './campaign-form-fields.tsx';
import { showSaveError } from './campaign-checks.ts';
import { statusLabel } from './campaign-status.ts';
import { RecipientsList } from './recipients-list.tsx';

/**
 * A campaign's own page, whatever its channel: a draft is edited here (its message, pace, contacts added and
 * removed, Save) and sent; a campaign under way shows its progress live with Pause, Resume and Cancel, and every
 * recipient's state. The channel (`parts`) words it and draws its message and recipients.
 */
export function CampaignPage<K extends CampaignChannel, F extends CampaignForm>({
  parts,
}: {
  parts: ChannelParts<K, F>;
}) {
  const { id = '' } = useParams();
  const campaign = useCampaign(parts.channel, id);
  if (campaign.isPending) return <Spinner />;
  if (campaign.isError) return <CampaignLoadFailed error={campaign.error} />;
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-4">
      <CampaignHeader parts={parts} campaign={campaign.data} />
      {campaign.data.status === 'draft' ? (
        <EditDraft parts={parts} campaign={campaign.data} key={campaign.data.id} />
      ) : (
        <parts.UnderWay campaign={campaign.data} />
      )}
    </div>
  );
}

function CampaignHeader<K extends CampaignChannel, F extends CampaignForm>(props: {
  parts: ChannelParts<K, F>;
  campaign: CampaignOf<K>;
}) {
  const { parts, campaign } = props;
  const action = useCampaignAction(parts.channel, campaign.id);
  const remove = useDeleteCampaign(parts.channel);
  const { percent } = campaignProgress(campaign.counts);
  const type = 'type' in campaign ? campaign.type : undefined;
  return (
    <CampaignControls
      id={campaign.id}
      name={campaign.name}
      status={statusLabel({ status: campaign.status, ...(type && { type }) })}
      percent={percent}
      progress={parts.progress(campaign)}
      notice={<parts.Notice campaign={campaign} />}
      allowed={campaignActions(campaign.status, type)}
      action={action}
      remove={remove}
      {...parts.texts(campaign)}
    />
  );
}

/** "1 of 3 done (33%)", then what the channel counts. */
export const progressText = (counts: CampaignOf<CampaignChannel>['counts'], middle: string) => {
  const { done, percent } = campaignProgress(counts);
  const unconfirmed = counts.unconfirmed > 0 ? ` · ${counts.unconfirmed.toLocaleString()} unconfirmed` : '';
  return `${done.toLocaleString()} of ${counts.total.toLocaleString()} done (${percent}%) · ${middle} · ${counts.failed.toLocaleString()} failed · ${counts.skipped.toLocaleString()} skipped${unconfirmed}`;
};

function EditDraft<K extends CampaignChannel, F extends CampaignForm>(props: {
  parts: ChannelParts<K, F>;
  campaign: CampaignOf<K>;
}) {
  const { parts, campaign } = props;
  const { draft } = parts;
  const { save, pending } = draft.useSave(campaign);
  const words = draft.words(campaign);
  const [form, setForm] = useState<F>(() => draft.initial(campaign));
  const [added, setAdded] = useState<ContactSelection | null>(null);
  const [removed, setRemoved] = useState<Set<string>>(new Set());
  const remaining = campaign.counts.total - removed.size + selectionSize(added);
  const submit = () => {
    if (!draft.check(campaign, form, remaining)) return;
    const contacts = {
      ...(added && { add: toBulkSelection(added) }),
      ...(removed.size > 0 && { remove: [...removed] }),
    };
    save(form, contacts, {
      onSuccess: () => {
        setAdded(null);
        setRemoved(new Set());
        toast.success(words.saved);
      },
      onError: showSaveError,
    });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>{words.title}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <draft.Editor campaign={campaign} form={form} onChange={setForm} />
        <div className="flex flex-col gap-2">
          <p className="text-sm font-medium">Add contacts</p>
          <SelectionPicker selection={added} onChange={setAdded} />
        </div>
        <div className="flex flex-col gap-2">
          <p className="text-sm font-medium">{words.contacts}</p>
          <RecipientsList
            channel={parts.channel}
            campaignId={campaign.id}
            describe={(r) => parts.describe(campaign, r)}
            removed={removed}
            onToggleRemove={(contactId) =>
              setRemoved((known) => {
                const next = new Set(known);
                if (!next.delete(contactId)) next.add(contactId);
                return next;
              })
            }
          />
        </div>
        <Button className="self-end" onClick={submit} disabled={pending || !form.name.trim()}>
          {words.save}
        </Button>
      </CardContent>
    </Card>
  );
}

/** The recipients of a campaign under way, in a card. */
export function RecipientsCard<K extends CampaignChannel, F extends CampaignForm>(props: {
  parts: ChannelParts<K, F>;
  campaign: CampaignOf<K>;
  children?: React.ReactNode;
  actions?: Parameters<typeof RecipientsList<K>>[0]['actions'];
}) {
  const { parts, campaign } = props;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recipients</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-2">
        {props.children}
        <RecipientsList
          channel={parts.channel}
          campaignId={campaign.id}
          describe={(r) => parts.describe(campaign, r)}
          {...(parts.labels && { labels: parts.labels(campaign) })}
          {...(props.actions && { actions: props.actions })}
        />
      </CardContent>
    </Card>
  );
}
