import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { ArrowLeft, Pause, Play, Send, Trash2, XCircle } from 'lucide-react';
import {
  CAMPAIGN_MESSAGES,
  campaignActions,
  campaignProgress,
} from '#domain/campaigns/email-campaign.schema.ts';
import type { SmsCampaign, SmsRecipient } from '#domain/campaigns/sms-campaign.schema.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Progress } from '../../../components/ui/progress.tsx';
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
import { PROJECTS_CAMPAIGNS, showSaveError } from './campaign-checks.ts';
import { STATUS_LABEL } from './campaign-status.ts';
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
  if (campaign.isError)
    return (
      <div role="alert" className="mx-auto max-w-3xl rounded-md border border-border p-4 text-sm">
        <p className="font-medium">{CAMPAIGN_MESSAGES.loadFailed.title}</p>
        <p className="text-muted-foreground">
          {campaign.error.message === CAMPAIGN_MESSAGES.notFound
            ? CAMPAIGN_MESSAGES.notFound
            : CAMPAIGN_MESSAGES.loadFailed.description}
        </p>
        <Link to={PROJECTS_CAMPAIGNS} className="underline">
          Back to campaigns
        </Link>
      </div>
    );
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
  const navigate = useNavigate();
  const action = useSmsCampaignAction(campaign.id);
  const remove = useDeleteSmsCampaign();
  const [confirming, setConfirming] = useState<'send' | 'cancel' | 'delete' | null>(null);
  const allowed = campaignActions(campaign.status);
  const { done, percent } = campaignProgress(campaign.counts);
  const c = campaign.counts;
  const run = (what: 'send' | 'pause' | 'resume' | 'cancel', said: string) =>
    action.mutate(what, {
      onSuccess: () => {
        setConfirming(null);
        toast.success(said);
      },
      onError: (error) => toast.error('Error', { description: error.message }),
    });
  return (
    <Card>
      <CardHeader className="flex flex-row items-center gap-3">
        <Button variant="ghost" size="sm" aria-label="Back to campaigns" asChild>
          <Link to={PROJECTS_CAMPAIGNS}>
            <ArrowLeft />
          </Link>
        </Button>
        <CardTitle className="min-w-0 truncate">{campaign.name}</CardTitle>
        <Badge variant="secondary" aria-label="Campaign status">
          {STATUS_LABEL[campaign.status]}
        </Badge>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <p className="text-sm" aria-label="Campaign progress">
          {done.toLocaleString()} of {c.total.toLocaleString()} done ({percent}%) · {c.sent.toLocaleString()}{' '}
          sent · {campaign.delivered.toLocaleString()} delivered · {c.failed.toLocaleString()} failed ·{' '}
          {c.skipped.toLocaleString()} skipped
          {c.unconfirmed > 0 && ` · ${c.unconfirmed.toLocaleString()} unconfirmed`}
        </p>
        <Progress value={percent} label={`${campaign.name} progress`} />
        {campaign.status === 'paused' && campaign.pauseReason && (
          <p role="alert" className="rounded-md border border-destructive p-2 text-sm">
            Paused: {campaign.pauseReason} Resume once it is fixed.
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          {allowed.send && (
            <Button onClick={() => setConfirming('send')} disabled={action.isPending}>
              <Send /> Send
            </Button>
          )}
          {allowed.pause && (
            <Button
              variant="outline"
              onClick={() => run('pause', 'Campaign paused')}
              disabled={action.isPending}
            >
              <Pause /> Pause
            </Button>
          )}
          {allowed.resume && (
            <Button
              variant="outline"
              onClick={() => run('resume', 'Campaign resumed')}
              disabled={action.isPending}
            >
              <Play /> Resume
            </Button>
          )}
          {allowed.cancel && (
            <Button variant="outline" onClick={() => setConfirming('cancel')} disabled={action.isPending}>
              <XCircle /> Cancel sending
            </Button>
          )}
          <Button variant="ghost" className="ml-auto" onClick={() => setConfirming('delete')}>
            <Trash2 /> Delete
          </Button>
        </div>
      </CardContent>
      <ConfirmDialog
        open={confirming === 'send'}
        onOpenChange={(open) => !open && setConfirming(null)}
        title="Send this campaign?"
        description={`${c.total.toLocaleString()} contact(s) get this text message, ${campaign.perMinute} a minute. Contacts without a phone, on your do-not-call list or who replied STOP are skipped.`}
        confirmLabel="Send now"
        busy={action.isPending}
        onConfirm={() => run('send', 'Campaign sending')}
      />
      <ConfirmDialog
        open={confirming === 'cancel'}
        onOpenChange={(open) => !open && setConfirming(null)}
        title="Cancel this campaign?"
        description="Messages already sent stay sent; nobody else will get this campaign."
        confirmLabel="Cancel sending"
        busy={action.isPending}
        onConfirm={() => run('cancel', 'Campaign canceled')}
      />
      <ConfirmDialog
        open={confirming === 'delete'}
        onOpenChange={(open) => !open && setConfirming(null)}
        title="Delete this campaign?"
        description="The campaign and its recipient list go."
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={() =>
          remove.mutate(campaign.id, {
            onSuccess: () => {
              toast.success('Campaign deleted');
              void navigate(PROJECTS_CAMPAIGNS);
            },
            onError: (error) =>
              toast.error('Error', { description: error.message || CAMPAIGN_MESSAGES.deleteFailed }),
          })
        }
      />
    </Card>
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
