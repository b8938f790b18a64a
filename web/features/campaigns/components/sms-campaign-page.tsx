import { useState } from 'react';
import { useParams } from 'react-router';
import { toast } from 'sonner';
import { campaignActions, campaignProgress } from '#domain/campaigns/email-campaign.schema.ts';
import type { SmsCampaign, SmsRecipient } from '#domain/campaigns/sms-campaign.schema.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useCallingSetup } from '../../calls/public.ts';
import { selectionSize, toBulkSelection, type ContactSelection } from '../../contacts/public.ts';
import { SelectionPicker } from '../../queues/public.ts';
import {
  useDeleteSmsCampaign,
  useSmsCampaign,
  useSmsCampaignAction,
  useUpdateSmsCampaign,
} from '../api/sms-campaigns-queries.ts';
import { showSaveError } from './campaign-checks.ts';
import { STATUS_LABEL } from './campaign-status.ts';
import { CampaignControls, CampaignLoadFailed } from './campaign-controls.tsx';
import { SimulateReplyDialog } from './simulate-reply-dialog.tsx';
import { checkSmsCampaign } from './sms-checks.ts';
import { SmsMessageFields, type SmsFields } from './sms-message-fields.tsx';
import { SmsRecipientsList } from './sms-recipients-list.tsx';

/**
 * /projects/sms/edit/{id} (spec part 2 §2.3: "Edit e-mail and edit SMS campaign share one form: name, contacts add
 * and remove, Save Campaign"): a draft is edited and sent here; a campaign being sent shows its progress live
 * (sent, delivered, failed, skipped) with Pause, Resume and Cancel, and each recipient's delivery and reply.
 */
export function SmsCampaignPage() {
  const { id = '' } = useParams();
  const campaign = useSmsCampaign(id);
  const setup = useCallingSetup();
  const [replying, setReplying] = useState<SmsRecipient | null>(null);
  if (campaign.isPending) return <Spinner />;
  if (campaign.isError) return <CampaignLoadFailed error={campaign.error} />;
  const onSimulator = setup.data?.provider === 'simulator';
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-4">
      <SmsHeader campaign={campaign.data} />
      {campaign.data.status === 'draft' ? (
        <EditSmsDraft campaign={campaign.data} key={campaign.data.id} />
      ) : (
        <Card>
          <CardHeader>
            <CardTitle>Recipients</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-2">
            {onSimulator && (
              <p className="text-xs text-muted-foreground">
                On the simulator, the reply button beside a recipient answers the message as their phone
                would.
              </p>
            )}
            <SmsRecipientsList
              campaignId={campaign.data.id}
              {...(onSimulator && { onSimulateReply: setReplying })}
            />
          </CardContent>
        </Card>
      )}
      <SimulateReplyDialog
        campaignId={campaign.data.id}
        recipient={replying}
        onClose={() => setReplying(null)}
      />
    </div>
  );
}

function SmsHeader({ campaign }: { campaign: SmsCampaign }) {
  const action = useSmsCampaignAction(campaign.id);
  const remove = useDeleteSmsCampaign();
  const { done, percent } = campaignProgress(campaign.counts);
  const c = campaign.counts;
  return (
    <CampaignControls
      id={campaign.id}
      name={campaign.name}
      status={STATUS_LABEL[campaign.status]}
      percent={percent}
      progress={`${done.toLocaleString()} of ${c.total.toLocaleString()} done (${percent}%) · ${c.sent.toLocaleString()} sent · ${campaign.delivered.toLocaleString()} delivered · ${c.failed.toLocaleString()} failed · ${c.skipped.toLocaleString()} skipped${
        c.unconfirmed > 0 ? ` · ${c.unconfirmed.toLocaleString()} unconfirmed` : ''
      }`}
      notice={
        campaign.status === 'paused' &&
        campaign.pauseReason && (
          <p role="alert" className="rounded-md border border-destructive p-2 text-sm">
            Paused: {campaign.pauseReason} Resume once it is fixed.
          </p>
        )
      }
      allowed={campaignActions(campaign.status)}
      action={action}
      remove={remove}
      said={{
        send: 'Campaign sending',
        pause: 'Campaign paused',
        resume: 'Campaign resumed',
        cancel: 'Campaign canceled',
      }}
      sendLabel="Send"
      confirmSend={{
        title: 'Send this campaign?',
        description: `${c.total.toLocaleString()} contact(s) get this text message, ${campaign.perMinute} a minute. Contacts without a phone, on your do-not-call list or who replied STOP are skipped.`,
        label: 'Send now',
      }}
      confirmCancel={{
        title: 'Cancel this campaign?',
        description: 'Messages already sent stay sent; nobody else will get this campaign.',
      }}
      confirmDelete={{
        title: 'Delete this campaign?',
        description: 'The campaign and its recipient list go.',
      }}
    />
  );
}

function EditSmsDraft({ campaign }: { campaign: SmsCampaign }) {
  const update = useUpdateSmsCampaign(campaign.id);
  const [fields, setFields] = useState<SmsFields>({
    name: campaign.name,
    message: campaign.message,
    perMinute: campaign.perMinute,
    projectId: campaign.projectId,
  });
  const [added, setAdded] = useState<ContactSelection | null>(null);
  const [removed, setRemoved] = useState<Set<string>>(new Set());
  const remaining = campaign.counts.total - removed.size + selectionSize(added);
  const save = () => {
    if (!checkSmsCampaign(fields, remaining)) return;
    update.mutate(
      {
        ...fields,
        ...(added && { add: toBulkSelection(added) }),
        ...(removed.size > 0 && { remove: [...removed] }),
      },
      {
        onSuccess: () => {
          setAdded(null);
          setRemoved(new Set());
          toast.success('Campaign updated');
        },
        onError: showSaveError,
      },
    );
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Edit campaign</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <SmsMessageFields fields={fields} onChange={setFields} />
        <div className="flex flex-col gap-2">
          <p className="text-sm font-medium">Add contacts</p>
          <SelectionPicker selection={added} onChange={setAdded} />
        </div>
        <div className="flex flex-col gap-2">
          <p className="text-sm font-medium">Contacts in this campaign</p>
          <SmsRecipientsList
            campaignId={campaign.id}
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
        <Button className="self-end" onClick={save} disabled={update.isPending || !fields.name.trim()}>
          Save Campaign
        </Button>
      </CardContent>
    </Card>
  );
}
