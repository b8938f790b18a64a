import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { ArrowLeft, Pause, Play, Send, Trash2, XCircle } from 'lucide-react';
import {
  CAMPAIGN_MESSAGES,
  campaignActions,
  campaignProgress,
  type EmailCampaign,
} from '#domain/campaigns/email-campaign.schema.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Progress } from '../../../components/ui/progress.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { selectionSize, toBulkSelection, type ContactSelection } from '../../contacts/public.ts';
import { useEmailConfiguration } from '../../email/public.ts';
import { SelectionPicker } from '../../queues/public.ts';
import {
  useCampaignAction,
  useDeleteEmailCampaign,
  useEmailCampaign,
  useUpdateEmailCampaign,
} from '../api/email-campaigns-queries.ts';
import { CampaignMessageFields, type CampaignFields } from './campaign-message-fields.tsx';
import { checkCampaign, PROJECTS_CAMPAIGNS, showSaveError } from './campaign-checks.ts';
import { RecipientsList } from './recipients-list.tsx';
import { STATUS_LABEL } from './campaign-status.ts';

/**
 * /projects/email/edit/{id} (spec part 2 §2.3): a draft is edited here (name, message, pace, contacts added and
 * removed, Save Campaign) and sent; a campaign being sent shows its progress live with Pause, Resume and Cancel,
 * and every recipient's state.
 */
export function EmailCampaignPage() {
  const { id = '' } = useParams();
  const campaign = useEmailCampaign(id);
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
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-4">
      <CampaignHeader campaign={campaign.data} />
      {campaign.data.status === 'draft' ? (
        <EditDraft campaign={campaign.data} key={campaign.data.id} />
      ) : (
        <Card>
          <CardHeader>
            <CardTitle>Recipients</CardTitle>
          </CardHeader>
          <CardContent>
            <RecipientsList campaignId={campaign.data.id} />
          </CardContent>
        </Card>
      )}
    </div>
  );
}

function CampaignHeader({ campaign }: { campaign: EmailCampaign }) {
  const navigate = useNavigate();
  const action = useCampaignAction(campaign.id);
  const remove = useDeleteEmailCampaign();
  const mail = useEmailConfiguration();
  const [confirming, setConfirming] = useState<'send' | 'cancel' | 'delete' | null>(null);
  const allowed = campaignActions(campaign.status);
  const { done, percent } = campaignProgress(campaign.counts);
  const run = (what: 'send' | 'pause' | 'resume' | 'cancel', said: string) =>
    action.mutate(what, {
      onSuccess: () => {
        setConfirming(null);
        toast.success(said);
      },
      onError: (error) => toast.error('Error', { description: error.message }),
    });
  const c = campaign.counts;
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
          sent · {c.failed.toLocaleString()} failed · {c.skipped.toLocaleString()} skipped
          {c.unconfirmed > 0 && ` · ${c.unconfirmed.toLocaleString()} unconfirmed`}
        </p>
        <Progress value={percent} label={`${campaign.name} progress`} />
        {campaign.status === 'paused' && campaign.pauseReason && (
          <p role="alert" className="rounded-md border border-destructive p-2 text-sm">
            Paused because the mail server failed: {campaign.pauseReason} Fix it in Settings → Email, then
            Resume.
          </p>
        )}
        {mail.data === null && (campaign.status === 'draft' || campaign.status === 'sending') && (
          <p className="rounded-md border border-border p-2 text-sm">
            No mail server is configured (Settings → Email): these e-mails are saved to your outbox, not sent.
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
        description={`${c.total.toLocaleString()} contact(s) get “${campaign.subject}”, ${campaign.perMinute} a minute. Contacts who unsubscribed or have no e-mail address are skipped.`}
        confirmLabel="Send now"
        busy={action.isPending}
        onConfirm={() => run('send', 'Campaign sending')}
      />
      <ConfirmDialog
        open={confirming === 'cancel'}
        onOpenChange={(open) => !open && setConfirming(null)}
        title="Cancel this campaign?"
        description="E-mails already sent stay sent; nobody else will get this campaign."
        confirmLabel="Cancel sending"
        busy={action.isPending}
        onConfirm={() => run('cancel', 'Campaign canceled')}
      />
      <ConfirmDialog
        open={confirming === 'delete'}
        onOpenChange={(open) => !open && setConfirming(null)}
        title="Delete this campaign?"
        description="The campaign and its recipient list go; e-mails already sent stay on each contact."
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

function EditDraft({ campaign }: { campaign: EmailCampaign }) {
  const update = useUpdateEmailCampaign(campaign.id);
  const [fields, setFields] = useState<CampaignFields>({
    name: campaign.name,
    subject: campaign.subject,
    body: campaign.body,
    perMinute: campaign.perMinute,
    projectId: campaign.projectId,
  });
  const [added, setAdded] = useState<ContactSelection | null>(null);
  const [removed, setRemoved] = useState<Set<string>>(new Set());
  const remaining = campaign.counts.total - removed.size + selectionSize(added);
  const save = () => {
    if (!checkCampaign(fields, remaining)) return;
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
        <CampaignMessageFields fields={fields} onChange={setFields} />
        <div className="flex flex-col gap-2">
          <p className="text-sm font-medium">Add contacts</p>
          <SelectionPicker selection={added} onChange={setAdded} />
        </div>
        <div className="flex flex-col gap-2">
          <p className="text-sm font-medium">Contacts in this campaign</p>
          <RecipientsList
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
