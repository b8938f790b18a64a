import { useState } from 'react';
import { campaignActions, type CampaignChannel } from '#domain/campaigns/campaign-state.ts';
import { Link } from 'react-router';
import { MAX_LOOKUP_IDS } from '#domain/contacts/contact-list.schema.ts';
import { toast } from 'sonner';
import { QUEUE_MESSAGES } from '#domain/contacts/queue.schema.ts';
import type { SendToCampaignProps } from '../contacts/public.ts';
import { Button } from '../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import {
  addedToQueueText,
  createdQueueText,
  useAddToQueue,
  useCreateQueue,
  useQueues,
} from '../queues/public.ts';
import { useAddToCampaign, useCampaigns } from '../campaigns/public.ts';
import { isDialerWindowOpen, sendContactsToDialerWindow } from '../dialer/public.ts';

const NEW_QUEUE = 'new';
const POP_OUT = 'pop-out';
/** A campaign's option: its channel and id ('email:…', 'sms:…'). */
const campaignOption = (channel: CampaignChannel, id: string) => `${channel}:${id}`;
const CHANNEL_NAME = { email: 'the e-mail campaign', sms: 'the SMS campaign' } as const;

/** The campaigns contacts may join now, with how the list names them: drafts, and sequences not canceled. */
function useOpenCampaigns() {
  const emails = useCampaigns('email');
  const sms = useCampaigns('sms');
  const open = <C extends { status: Parameters<typeof campaignActions>[0]; type?: 'campaign' | 'sequence' }>(
    list: C[] | undefined,
  ) => (list ?? []).filter((c) => campaignActions(c.status, c.type).enroll);
  return [
    ...open(emails.data).map((c) => ({
      ...c,
      channel: 'email' as const,
      kind: c.type === 'sequence' ? 'E-mail sequence' : 'E-mail campaign',
    })),
    ...open(sms.data).map((c) => ({ ...c, channel: 'sms' as const, kind: 'SMS campaign' })),
  ];
}

/**
 * Send to Campaign (decision 000): adds the selection to a call queue the person picks, or to a new queue they
 * name on the spot (ticked contacts, or every contact matching the filter). Contacts already in a queue are
 * ignored. Draft e-mail campaigns are offered beside the queues (a campaign already sent no longer takes contacts), and
 * e-mail sequences until they are canceled, and draft SMS campaigns.
 */
export function SendToCampaignDialog(props: SendToCampaignProps) {
  const queues = useQueues(props.open);
  const add = useAddToQueue();
  const campaigns = useOpenCampaigns();
  const addToEmail = useAddToCampaign('email');
  const addToSms = useAddToCampaign('sms');
  const create = useCreateQueue();
  const [chosen, setChosen] = useState<string | null>(null);
  const [name, setName] = useState('');
  const queueId = chosen ?? queues.data?.[0]?.id ?? null;
  /** A pop-out dialer this tab opened takes ticked contacts (its messages carry ids, not filters). */
  const popOutTakesSelection = props.open && 'ids' in props.selection && isDialerWindowOpen();
  const busy = add.isPending || create.isPending || addToEmail.isPending || addToSms.isPending;

  const finish = () => {
    props.onOpenChange(false);
    props.onDone();
    setChosen(null);
    setName('');
  };

  const handleSend = () => {
    if (queueId === POP_OUT && 'ids' in props.selection) {
      if (!sendContactsToDialerWindow(props.selection.ids))
        return void toast.error(QUEUE_MESSAGES.addFailed, {
          description: 'The pop-out dialer was closed. Open it again from the Call Dashboard.',
        });
      toast.success('Campaign prepared', {
        description: `${props.count} contact(s) sent to the pop-out dialer's queue.`,
      });
      return finish();
    }
    if (queueId === NEW_QUEUE) {
      if (!name.trim())
        return void toast.error(QUEUE_MESSAGES.nameRequired.title, {
          description: QUEUE_MESSAGES.nameRequired.description,
        });
      return create.mutate(
        { name, selection: props.selection },
        {
          onSuccess: (queue) => {
            toast.success('Queue created', { description: createdQueueText(queue) });
            finish();
          },
          onError: (error) =>
            toast.error('Error', {
              description: error.message || 'Failed to create queue. Please try again.',
            }),
        },
      );
    }
    if (!queueId) return;
    const campaign = campaigns.find((c) => campaignOption(c.channel, c.id) === queueId);
    if (campaign) {
      const addTo = campaign.channel === 'email' ? addToEmail : addToSms;
      return addTo.mutate(
        { campaignId: campaign.id, selection: props.selection },
        {
          onSuccess: (result) => {
            toast.success('Campaign prepared', {
              description: `${props.count} contact(s) ready for campaign: ${result.added} added to ${campaign.name || CHANNEL_NAME[campaign.channel]}.`,
            });
            finish();
          },
          onError: (error) => toast.error('Error', { description: error.message }),
        },
      );
    }
    add.mutate(
      { queueId, selection: props.selection },
      {
        onSuccess: (result) => {
          const queueName = queues.data?.find((q) => q.id === queueId)?.name ?? 'the queue';
          toast.success('Campaign prepared', {
            description: `${props.count} contact(s) ready for campaign: ${addedToQueueText(result, queueName)}`,
          });
          finish();
        },
        onError: (error) => toast.error(QUEUE_MESSAGES.addFailed, { description: error.message }),
      },
    );
  };

  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Send to Campaign</DialogTitle>
          <DialogDescription>
            Add {props.count.toLocaleString()} selected contact(s) to a call queue, a draft e-mail or SMS
            campaign or an e-mail sequence, or start a new queue with them. Contacts already there are
            skipped.
          </DialogDescription>
        </DialogHeader>
        {queues.isPending && <Spinner />}
        <div role="radiogroup" aria-label="Call queue" className="flex flex-col gap-2">
          {popOutTakesSelection && (
            <label className="flex items-center gap-3 rounded-md border border-border p-3 text-sm">
              <input
                type="radio"
                name="queue"
                className="accent-primary"
                checked={queueId === POP_OUT}
                onChange={() => setChosen(POP_OUT)}
              />
              <span className="font-medium">The open pop-out dialer</span>
              <span className="ml-auto text-muted-foreground">adds them to the queue it is calling</span>
            </label>
          )}
          {queues.data?.map((q) => (
            <label key={q.id} className="flex items-center gap-3 rounded-md border border-border p-3 text-sm">
              <input
                type="radio"
                name="queue"
                className="accent-primary"
                checked={queueId === q.id}
                onChange={() => setChosen(q.id)}
              />
              <span className="font-medium">{q.name}</span>
              <span className="ml-auto text-muted-foreground">{q.total.toLocaleString()} contacts</span>
            </label>
          ))}
          {campaigns.map((c) => (
            <label key={c.id} className="flex items-center gap-3 rounded-md border border-border p-3 text-sm">
              <input
                type="radio"
                name="queue"
                className="accent-primary"
                checked={queueId === campaignOption(c.channel, c.id)}
                onChange={() => setChosen(campaignOption(c.channel, c.id))}
              />
              <span className="font-medium">{c.name}</span>
              <span className="ml-auto text-muted-foreground">
                {c.kind} · {c.counts.total.toLocaleString()} contacts
              </span>
            </label>
          ))}
          {queues.data && (
            <label className="flex flex-col gap-2 rounded-md border border-border p-3 text-sm">
              <span className="flex items-center gap-3">
                <input
                  type="radio"
                  name="queue"
                  className="accent-primary"
                  checked={queueId === NEW_QUEUE}
                  onChange={() => setChosen(NEW_QUEUE)}
                />
                <span className="font-medium">New call queue</span>
              </span>
              {queueId === NEW_QUEUE &&
                'ids' in props.selection &&
                props.selection.ids.length <= MAX_LOOKUP_IDS && (
                  <Link
                    to="/projects/queue/create"
                    state={{ selectedContactIds: props.selection.ids }}
                    className="text-primary hover:underline"
                  >
                    Open in the queue editor (project, more contacts)
                  </Link>
                )}
              {queueId === NEW_QUEUE && (
                <Input
                  aria-label="Queue name"
                  placeholder="Queue name"
                  maxLength={200}
                  autoFocus
                  value={name}
                  onChange={(e) => setName(e.target.value)}
                />
              )}
            </label>
          )}
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => props.onOpenChange(false)}>
            Cancel
          </Button>
          <Button disabled={!queueId || busy} onClick={handleSend}>
            {queueId === NEW_QUEUE
              ? 'Create Queue'
              : queueId === POP_OUT
                ? 'Send to dialer'
                : campaigns.some((c) => campaignOption(c.channel, c.id) === queueId)
                  ? 'Add to campaign'
                  : 'Add to queue'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
