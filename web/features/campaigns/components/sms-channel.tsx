import { useState } from 'react';
import { MessageSquareReply } from 'lucide-react';
import {
  SMS_MESSAGES,
  type SmsCampaign,
  type SmsDelivery,
  type SmsRecipient,
} from '#domain/campaigns/sms-campaign.schema.ts';
import { Button } from '../../../components/ui/button.tsx';
import { useCallingSetup } from '../../calls/public.ts';
import { useUpdateCampaign } from '../api/campaign-queries.ts';
import type { ChannelParts } from './campaign-channel.ts';
import { checkCampaign, smsProblem } from './campaign-checks.ts';
import { progressText, RecipientsCard } from './campaign-page.tsx';
import { RECIPIENT_STATE_LABEL } from './recipients-list.tsx';
import { SimulateReplyDialog } from './simulate-reply-dialog.tsx';
import { SmsMessageFields, type SmsForm } from './sms-message-fields.tsx';

const DELIVERY_LABEL: Record<SmsDelivery, string> = {
  queued: 'Accepted by the provider',
  sent: 'Sent to the carrier',
  delivered: 'Delivered',
  undelivered: 'Not delivered',
  failed: 'Delivery failed',
};

/** An SMS campaign under way: its recipients, and on the simulator a button beside each to answer as their phone. */
function SmsUnderWay({ campaign }: { campaign: SmsCampaign }) {
  const setup = useCallingSetup();
  const [replying, setReplying] = useState<SmsRecipient | null>(null);
  const onSimulator = setup.data?.provider === 'simulator';
  return (
    <>
      <RecipientsCard
        parts={smsParts}
        campaign={campaign}
        {...(onSimulator && {
          actions: (r: SmsRecipient) =>
            r.state === 'sent' && (
              <Button
                type="button"
                size="sm"
                variant="ghost"
                aria-label={`Simulate a reply from ${r.name}`}
                onClick={() => setReplying(r)}
              >
                <MessageSquareReply />
              </Button>
            ),
        })}
      >
        {onSimulator && (
          <p className="text-xs text-muted-foreground">
            On the simulator, the reply button beside a recipient answers the message as their phone would.
          </p>
        )}
      </RecipientsCard>
      <SimulateReplyDialog campaignId={campaign.id} recipient={replying} onClose={() => setReplying(null)} />
    </>
  );
}

function SmsNotice({ campaign }: { campaign: SmsCampaign }) {
  if (campaign.status !== 'paused' || !campaign.pauseReason) return null;
  return (
    <p role="alert" className="rounded-md border border-destructive p-2 text-sm">
      Paused: {campaign.pauseReason} Resume once it is fixed.
    </p>
  );
}

function useSaveSms(campaign: SmsCampaign) {
  const update = useUpdateCampaign('sms', campaign.id);
  return {
    pending: update.isPending,
    save: (form: SmsForm, contacts: object, done: { onSuccess: () => void; onError: (e: Error) => void }) =>
      update.mutate({ ...form, ...contacts }, done),
  };
}

/** SMS campaigns on the campaign page (/projects/sms/edit/{id}): each recipient's delivery report and reply. */
export const smsParts: ChannelParts<'sms', SmsForm> = {
  channel: 'sms',
  progress: (c) =>
    progressText(
      c.counts,
      `${c.counts.sent.toLocaleString()} sent · ${c.delivered.toLocaleString()} delivered`,
    ),
  texts: (c) => ({
    said: {
      send: 'Campaign sending',
      pause: 'Campaign paused',
      resume: 'Campaign resumed',
      cancel: 'Campaign canceled',
    },
    sendLabel: 'Send',
    confirmSend: {
      title: 'Send this campaign?',
      description: `${c.counts.total.toLocaleString()} contact(s) get this text message, ${c.perMinute} a minute. Contacts without a phone, on your do-not-call list or who replied STOP are skipped.`,
      label: 'Send now',
    },
    confirmCancel: {
      title: 'Cancel this campaign?',
      description: 'Messages already sent stay sent; nobody else will get this campaign.',
    },
    confirmDelete: { title: 'Delete this campaign?', description: 'The campaign and its recipient list go.' },
  }),
  Notice: SmsNotice,
  draft: {
    initial: (c) => ({ name: c.name, message: c.message, perMinute: c.perMinute, projectId: c.projectId }),
    Editor: ({ form, onChange }) => <SmsMessageFields form={form} onChange={onChange} />,
    check: (_c, form, contacts) => checkCampaign(SMS_MESSAGES.nameRequired, form, contacts, smsProblem(form)),
    useSave: useSaveSms,
    words: () => ({
      title: 'Edit campaign',
      contacts: 'Contacts in this campaign',
      save: 'Save Campaign',
      saved: 'Campaign updated',
    }),
  },
  describe: (_c, r) => ({
    address: r.phone,
    notes: [
      r.reason,
      r.delivery && `${DELIVERY_LABEL[r.delivery]}${r.deliveryError ? ` (${r.deliveryError})` : ''}`,
      r.reply && `Replied: “${r.reply}”`,
    ].filter((n): n is string => Boolean(n)),
    badge: RECIPIENT_STATE_LABEL[r.state],
  }),
  UnderWay: SmsUnderWay,
};
