import { useState } from 'react';
import { useParams } from 'react-router';
import { toast } from 'sonner';
import {
  campaignActions,
  campaignProgress,
  type EmailCampaign,
} from '#domain/campaigns/email-campaign.schema.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { selectionSize, toBulkSelection, type ContactSelection } from '../../contacts/public.ts';
import { useEmailConfiguration } from '../../email/public.ts';
import { SelectionPicker } from '../../queues/public.ts';
import {
  useCampaignAction,
  useDeleteEmailCampaign,
  useEmailCampaign,
  useUpdateEmailCampaign,
  useUpdateEmailSequence,
} from '../api/email-campaigns-queries.ts';
import { CampaignMessageFields, type CampaignFields } from './campaign-message-fields.tsx';
import { checkCampaign, checkSequence, showSaveError } from './campaign-checks.ts';
import { RecipientsList } from './recipients-list.tsx';
import { statusLabel } from './campaign-status.ts';
import { CampaignControls, CampaignLoadFailed } from './campaign-controls.tsx';
import { SequenceUnderWay } from './sequence-under-way.tsx';
import { SequenceStepsEditor } from './sequence-steps-editor.tsx';

/**
 * /projects/email/edit/{id} and /projects/email-sequence/edit/{id} (spec part 2 §2.3): a draft is edited here
 * (name, message or the sequence's e-mails, pace, contacts added and removed, Save Campaign) and sent; a campaign
 * being sent shows its progress live with Pause, Resume and Cancel, and every recipient's state. A sequence under
 * way also takes new contacts and lets contacts leave.
 */
export function EmailCampaignPage() {
  const { id = '' } = useParams();
  const campaign = useEmailCampaign(id);
  if (campaign.isPending) return <Spinner />;
  if (campaign.isError) return <CampaignLoadFailed error={campaign.error} />;
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-4">
      <CampaignHeader campaign={campaign.data} />
      {campaign.data.status === 'draft' ? (
        <EditDraft campaign={campaign.data} key={campaign.data.id} />
      ) : campaign.data.type === 'sequence' ? (
        <SequenceUnderWay sequence={campaign.data} />
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
  const action = useCampaignAction(campaign.id);
  const remove = useDeleteEmailCampaign();
  const mail = useEmailConfiguration();
  const sequence = campaign.type === 'sequence';
  const { done, percent } = campaignProgress(campaign.counts);
  const c = campaign.counts;
  const kind = sequence ? 'Sequence' : 'Campaign';
  return (
    <CampaignControls
      id={campaign.id}
      name={campaign.name}
      status={statusLabel(campaign)}
      percent={percent}
      progress={`${done.toLocaleString()} of ${c.total.toLocaleString()} done (${percent}%) · ${
        sequence
          ? `${c.queued.toLocaleString()} in the sequence · ${c.sent.toLocaleString()} completed`
          : `${c.sent.toLocaleString()} sent`
      } · ${c.failed.toLocaleString()} failed · ${c.skipped.toLocaleString()} skipped${
        c.unconfirmed > 0 ? ` · ${c.unconfirmed.toLocaleString()} unconfirmed` : ''
      }`}
      notice={
        <>
          {campaign.status === 'paused' && campaign.pauseReason && (
            <p role="alert" className="rounded-md border border-destructive p-2 text-sm">
              Paused because the mail server failed: {campaign.pauseReason} Fix it in Settings → Email, then
              Resume.
            </p>
          )}
          {mail.data === null && (campaign.status === 'draft' || campaign.status === 'sending') && (
            <p className="rounded-md border border-border p-2 text-sm">
              No mail server is configured (Settings → Email): these e-mails are saved to your outbox, not
              sent.
            </p>
          )}
        </>
      }
      allowed={campaignActions(campaign.status, campaign.type)}
      action={action}
      remove={remove}
      said={{
        send: sequence ? 'Sequence started' : 'Campaign sending',
        pause: `${kind} paused`,
        resume: `${kind} resumed`,
        cancel: `${kind} canceled`,
      }}
      sendLabel={sequence ? 'Start sequence' : 'Send'}
      confirmSend={
        sequence
          ? {
              title: 'Start this sequence?',
              description: `${c.total.toLocaleString()} contact(s) get its ${campaign.stepCount} e-mail(s), each on its day, ${campaign.perMinute} a minute at most. Contacts who unsubscribed or have no e-mail address are skipped.`,
              label: 'Start now',
            }
          : {
              title: 'Send this campaign?',
              description: `${c.total.toLocaleString()} contact(s) get “${campaign.subject}”, ${campaign.perMinute} a minute. Contacts who unsubscribed or have no e-mail address are skipped.`,
              label: 'Send now',
            }
      }
      confirmCancel={{
        title: `Cancel this ${kind.toLowerCase()}?`,
        description: sequence
          ? 'E-mails already sent stay sent; nobody gets another e-mail of this sequence, and nobody can join it.'
          : 'E-mails already sent stay sent; nobody else will get this campaign.',
      }}
      confirmDelete={{
        title: `Delete this ${kind.toLowerCase()}?`,
        description: 'The campaign and its recipient list go; e-mails already sent stay on each contact.',
      }}
    />
  );
}

function EditDraft({ campaign }: { campaign: EmailCampaign }) {
  const sequence = campaign.type === 'sequence';
  const updateCampaign = useUpdateEmailCampaign(campaign.id);
  const updateSequence = useUpdateEmailSequence(campaign.id);
  const pending = updateCampaign.isPending || updateSequence.isPending;
  const [fields, setFields] = useState<CampaignFields>({
    name: campaign.name,
    subject: campaign.subject,
    body: campaign.body,
    perMinute: campaign.perMinute,
    projectId: campaign.projectId,
  });
  const [steps, setSteps] = useState(campaign.steps ?? []);
  const [added, setAdded] = useState<ContactSelection | null>(null);
  const [removed, setRemoved] = useState<Set<string>>(new Set());
  const remaining = campaign.counts.total - removed.size + selectionSize(added);
  const save = () => {
    if (sequence ? !checkSequence(fields, steps, remaining) : !checkCampaign(fields, remaining)) return;
    const contacts = {
      ...(added && { add: toBulkSelection(added) }),
      ...(removed.size > 0 && { remove: [...removed] }),
    };
    const done = {
      onSuccess: () => {
        setAdded(null);
        setRemoved(new Set());
        toast.success(sequence ? 'Sequence updated' : 'Campaign updated');
      },
      onError: showSaveError,
    };
    const { name, projectId, perMinute } = fields;
    if (sequence) updateSequence.mutate({ name, projectId, perMinute, steps, ...contacts }, done);
    else updateCampaign.mutate({ ...fields, ...contacts }, done);
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>{sequence ? 'Edit sequence' : 'Edit campaign'}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <CampaignMessageFields fields={fields} onChange={setFields} sequence={sequence} />
        {sequence && <SequenceStepsEditor steps={steps} onChange={setSteps} />}
        <div className="flex flex-col gap-2">
          <p className="text-sm font-medium">Add contacts</p>
          <SelectionPicker selection={added} onChange={setAdded} />
        </div>
        <div className="flex flex-col gap-2">
          <p className="text-sm font-medium">
            {sequence ? 'Contacts in this sequence' : 'Contacts in this campaign'}
          </p>
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
        <Button className="self-end" onClick={save} disabled={pending || !fields.name.trim()}>
          {sequence ? 'Save Sequence' : 'Save Campaign'}
        </Button>
      </CardContent>
    </Card>
  );
}
