import { EMAIL_CAMPAIGN_MESSAGES, type EmailCampaign } from '#domain/campaigns/email-campaign.schema.ts';
import {
  SEQUENCE_MESSAGES,
  sequenceProgressText,
  type SequenceStep,
} from '#domain/campaigns/email-sequence.schema.ts';
import { formatMoment } from '../../../lib/dates.ts';
import { useEmailConfiguration } from '../../email/public.ts';
import { useUpdateCampaign } from '../api/campaign-queries.ts';
import { useUpdateSequence } from '../api/sequence-queries.ts';
import type { ChannelParts } from './campaign-channel.ts';
import { checkCampaign, emailProblem, sequenceProblem } from './campaign-checks.ts';
import { progressText, RecipientsCard } from './campaign-page.tsx';
import { EmailMessageFields, type EmailForm } from './email-message-fields.tsx';
import { RECIPIENT_STATE_LABEL } from './recipients-list.tsx';
import { SequenceStepsEditor } from './sequence-steps-editor.tsx';
import { SEQUENCE_STATE_LABEL } from './sequence-state-label.ts';
import { SequenceUnderWay } from './sequence-under-way.tsx';

type Form = EmailForm & { steps: SequenceStep[] };

const isSequence = (campaign: EmailCampaign) => campaign.type === 'sequence';

function EmailNotice({ campaign }: { campaign: EmailCampaign }) {
  const mail = useEmailConfiguration();
  return (
    <>
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
    </>
  );
}

function EmailEditor(props: { campaign: EmailCampaign; form: Form; onChange: (form: Form) => void }) {
  const sequence = isSequence(props.campaign);
  return (
    <>
      <EmailMessageFields
        form={props.form}
        onChange={(fields) => props.onChange({ ...props.form, ...fields })}
        sequence={sequence}
      />
      {sequence && (
        <SequenceStepsEditor
          steps={props.form.steps}
          onChange={(steps) => props.onChange({ ...props.form, steps })}
        />
      )}
    </>
  );
}

function useSaveEmail(campaign: EmailCampaign) {
  const updateCampaign = useUpdateCampaign('email', campaign.id);
  const updateSequence = useUpdateSequence(campaign.id);
  return {
    pending: updateCampaign.isPending || updateSequence.isPending,
    save: (form: Form, contacts: object, done: { onSuccess: () => void; onError: (e: Error) => void }) => {
      const { name, projectId, perMinute, subject, body, steps, description } = form;
      if (isSequence(campaign))
        updateSequence.mutate({ name, projectId, perMinute, steps, description, ...contacts }, done);
      else updateCampaign.mutate({ name, projectId, perMinute, subject, body, ...contacts }, done);
    },
  };
}

/**
 * E-mail campaigns and sequences on the campaign page (/projects/email/edit/{id}, /projects/email-sequence/edit/{id}):
 * a sequence's draft edits its e-mails; once started it takes new contacts and lets contacts leave.
 */
export const emailParts: ChannelParts<'email', Form> = {
  channel: 'email',
  progress: (c) =>
    progressText(
      c.counts,
      isSequence(c)
        ? `${c.counts.queued.toLocaleString()} in the sequence · ${c.counts.sent.toLocaleString()} completed`
        : `${c.counts.sent.toLocaleString()} sent`,
    ),
  texts: (c) => {
    const sequence = isSequence(c);
    const kind = sequence ? 'Sequence' : 'Campaign';
    const total = c.counts.total.toLocaleString();
    const skipped = 'Contacts who unsubscribed or have no e-mail address are skipped.';
    return {
      said: {
        send: sequence ? 'Sequence started' : 'Campaign sending',
        pause: `${kind} paused`,
        resume: `${kind} resumed`,
        cancel: `${kind} canceled`,
      },
      sendLabel: sequence ? 'Start sequence' : 'Send',
      confirmSend: sequence
        ? {
            title: 'Start this sequence?',
            description: `${total} contact(s) get its ${c.stepCount} e-mail(s), each on its day, ${c.perMinute} a minute at most. ${skipped}`,
            label: 'Start now',
          }
        : {
            title: 'Send this campaign?',
            description: `${total} contact(s) get “${c.subject}”, ${c.perMinute} a minute. ${skipped}`,
            label: 'Send now',
          },
      confirmCancel: {
        title: `Cancel this ${kind.toLowerCase()}?`,
        description: sequence
          ? 'E-mails already sent stay sent; nobody gets another e-mail of this sequence, and nobody can join it.'
          : 'E-mails already sent stay sent; nobody else will get this campaign.',
      },
      confirmDelete: {
        title: `Delete this ${kind.toLowerCase()}?`,
        description: 'The campaign and its recipient list go; e-mails already sent stay on each contact.',
      },
    };
  },
  Notice: EmailNotice,
  draft: {
    initial: (c) => ({
      name: c.name,
      subject: c.subject,
      body: c.body,
      description: c.description ?? '',
      perMinute: c.perMinute,
      projectId: c.projectId,
      steps: c.steps ?? [],
    }),
    Editor: EmailEditor,
    check: (c, form, contacts) =>
      isSequence(c)
        ? checkCampaign(SEQUENCE_MESSAGES.nameRequired, form, contacts, sequenceProblem(form.steps))
        : checkCampaign(EMAIL_CAMPAIGN_MESSAGES.nameRequired, form, contacts, emailProblem(form)),
    useSave: useSaveEmail,
    words: (c) =>
      isSequence(c)
        ? {
            title: 'Edit sequence',
            contacts: 'Contacts in this sequence',
            save: 'Save Sequence',
            saved: 'Sequence updated',
          }
        : {
            title: 'Edit campaign',
            contacts: 'Contacts in this campaign',
            save: 'Save Campaign',
            saved: 'Campaign updated',
          },
  },
  describe: (c, r) => {
    const sequence = isSequence(c);
    const reason =
      r.reason ?? (r.delivery === 'outbox' ? 'Saved to your outbox: no mail server is configured' : null);
    return {
      address: r.email,
      notes: [sequence ? sequenceProgressText(r, c.stepCount, formatMoment) : null, reason].filter(
        (n): n is string => n !== null,
      ),
      badge:
        r.delivery === 'outbox' && !sequence
          ? 'In outbox'
          : (sequence ? SEQUENCE_STATE_LABEL : RECIPIENT_STATE_LABEL)[r.state],
    };
  },
  labels: (c) => (isSequence(c) ? SEQUENCE_STATE_LABEL : RECIPIENT_STATE_LABEL),
  UnderWay: ({ campaign }) =>
    isSequence(campaign) ? (
      <SequenceUnderWay sequence={campaign} describe={(r) => emailParts.describe(campaign, r)} />
    ) : (
      <RecipientsCard parts={emailParts} campaign={campaign} />
    ),
};
