import { campaignActions } from '#domain/campaigns/email-campaign.schema.ts';
import { useState } from 'react';
import { Link } from 'react-router';
import { MAX_LOOKUP_IDS } from '#domain/contacts/contact-list.schema.ts';
import { toast } from 'sonner';
import type { BulkSelection } from '#domain/contacts/bulk-selection.schema.ts';
import { QUEUE_MESSAGES } from '#domain/contacts/queue.schema.ts';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import {
  addedToQueueText,
  createdQueueText,
  useAddToQueue,
  useCreateQueue,
  useQueues,
} from '../../queues/public.ts';
import {
  useAddToEmailCampaign,
  useAddToSmsCampaign,
  useEmailCampaigns,
  useSmsCampaigns,
} from '../../campaigns/public.ts';

const NEW_QUEUE = 'new';
const EMAIL = 'email:';
const SMS = 'sms:';

/**
 * Send to Campaign (decision 000): adds the selection to a call queue the person picks, or to a new queue they
 * name on the spot (ticked contacts, or every contact matching the filter). Contacts already in a queue are
 * ignored. Draft e-mail campaigns are offered beside the queues (a campaign already sent no longer takes contacts), and
 * e-mail sequences until they are canceled, and draft SMS campaigns.
 */
export function SendToCampaignDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  selection: BulkSelection;
  count: number;
  onDone: () => void;
}) {
  const queues = useQueues(props.open);
  const add = useAddToQueue();
  const emails = useEmailCampaigns();
  const addToEmail = useAddToEmailCampaign();
  // Draft campaigns, and sequences not canceled (contacts join a sequence under way).
  const drafts = emails.data?.filter((c) => campaignActions(c.status, c.type).enroll) ?? [];
  const sms = useSmsCampaigns();
  const addToSms = useAddToSmsCampaign();
  const smsDrafts = sms.data?.filter((c) => c.status === 'draft') ?? [];
  const create = useCreateQueue();
  const [chosen, setChosen] = useState<string | null>(null);
  const [name, setName] = useState('');
  const queueId = chosen ?? queues.data?.[0]?.id ?? null;
  const busy = add.isPending || create.isPending || addToEmail.isPending || addToSms.isPending;

  const finish = () => {
    props.onOpenChange(false);
    props.onDone();
    setChosen(null);
    setName('');
  };

  const handleSend = () => {
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
    if (queueId.startsWith(SMS)) {
      const campaign = smsDrafts.find((c) => `${SMS}${c.id}` === queueId);
      return addToSms.mutate(
        { campaignId: queueId.slice(SMS.length), selection: props.selection },
        {
          onSuccess: (result) => {
            toast.success('Campaign prepared', {
              description: `${props.count} contact(s) ready for campaign: ${result.added} added to ${campaign?.name ?? 'the SMS campaign'}.`,
            });
            finish();
          },
          onError: (error) => toast.error('Error', { description: error.message }),
        },
      );
    }
    if (queueId.startsWith(EMAIL)) {
      const campaign = drafts.find((c) => `${EMAIL}${c.id}` === queueId);
      return addToEmail.mutate(
        { campaignId: queueId.slice(EMAIL.length), selection: props.selection },
        {
          onSuccess: (result) => {
            toast.success('Campaign prepared', {
              description: `${props.count} contact(s) ready for campaign: ${result.added} added to ${campaign?.name ?? 'the e-mail campaign'}.`,
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
        onError: (error) => toast.error('Error', { description: error.message }),
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
          {drafts.map((c) => (
            <label key={c.id} className="flex items-center gap-3 rounded-md border border-border p-3 text-sm">
              <input
                type="radio"
                name="queue"
                className="accent-primary"
                checked={queueId === `${EMAIL}${c.id}`}
                onChange={() => setChosen(`${EMAIL}${c.id}`)}
              />
              <span className="font-medium">{c.name}</span>
              <span className="ml-auto text-muted-foreground">
                {c.type === 'sequence' ? 'E-mail sequence' : 'E-mail campaign'} ·{' '}
                {c.counts.total.toLocaleString()} contacts
              </span>
            </label>
          ))}
          {smsDrafts.map((c) => (
            <label key={c.id} className="flex items-center gap-3 rounded-md border border-border p-3 text-sm">
              <input
                type="radio"
                name="queue"
                className="accent-primary"
                checked={queueId === `${SMS}${c.id}`}
                onChange={() => setChosen(`${SMS}${c.id}`)}
              />
              <span className="font-medium">{c.name}</span>
              <span className="ml-auto text-muted-foreground">
                SMS campaign · {c.counts.total.toLocaleString()} contacts
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
              : queueId?.startsWith(EMAIL) || queueId?.startsWith(SMS)
                ? 'Add to campaign'
                : 'Add to queue'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
