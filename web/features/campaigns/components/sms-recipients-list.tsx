import { useState } from 'react';
import { MessageSquareReply, X } from 'lucide-react';
import type { RecipientState } from '#domain/campaigns/email-campaign.schema.ts';
import type { SmsDelivery, SmsRecipient } from '#domain/campaigns/sms-campaign.schema.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { ShowMoreItem } from '../../../components/ui/show-more-item.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useSmsRecipients } from '../api/sms-campaigns-queries.ts';

const STATE_LABEL: Record<RecipientState, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
  skipped: 'Skipped',
  unconfirmed: 'Unconfirmed',
};
const DELIVERY_LABEL: Record<SmsDelivery, string> = {
  queued: 'Accepted by the provider',
  sent: 'Sent to the carrier',
  delivered: 'Delivered',
  undelivered: 'Not delivered',
  failed: 'Delivery failed',
};

/**
 * An SMS campaign's recipients in send order: state and why, the provider's delivery report, and the reply. On a
 * draft each can be marked for removal; on the simulator a reply can be simulated (`onSimulateReply`).
 */
export function SmsRecipientsList(props: {
  campaignId: string;
  removed?: Set<string>;
  onToggleRemove?: (contactId: string) => void;
  onSimulateReply?: (recipient: SmsRecipient) => void;
}) {
  const [state, setState] = useState<RecipientState | 'all'>('all');
  const recipients = useSmsRecipients(props.campaignId, state);
  const rows = recipients.data?.pages.flatMap((p) => p.recipients) ?? [];
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center gap-2">
        <Label htmlFor="sms-recipient-state">Show</Label>
        <NativeSelect
          id="sms-recipient-state"
          className="w-44"
          value={state}
          onChange={(e) => setState(e.target.value as RecipientState | 'all')}
        >
          <option value="all">Every recipient</option>
          {Object.entries(STATE_LABEL).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </NativeSelect>
        {recipients.isFetching && <Spinner />}
      </div>
      {recipients.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {recipients.error.message}
        </p>
      ) : (
        <ul
          aria-label="Recipients"
          className="max-h-[400px] divide-y divide-border overflow-y-auto rounded-md border border-border text-sm"
        >
          {!recipients.isPending && rows.length === 0 && (
            <li className="p-3 text-muted-foreground">No recipients</li>
          )}
          {rows.map((r) => {
            const removed = props.removed?.has(r.contactId) ?? false;
            const notes = [
              r.reason,
              r.delivery && `${DELIVERY_LABEL[r.delivery]}${r.deliveryError ? ` (${r.deliveryError})` : ''}`,
              r.reply && `Replied: “${r.reply}”`,
            ].filter(Boolean);
            return (
              <li key={r.contactId} className="flex items-center gap-3 p-2" aria-label={r.name}>
                <div className="min-w-0 flex-1">
                  <p className={removed ? 'truncate line-through' : 'truncate'}>
                    {r.name}
                    {r.phone && <span className="text-muted-foreground"> · {r.phone}</span>}
                  </p>
                  {notes.map((note) => (
                    <p key={note} className="text-xs text-muted-foreground">
                      {note}
                    </p>
                  ))}
                </div>
                <Badge
                  variant={r.state === 'failed' || r.state === 'unconfirmed' ? 'destructive' : 'secondary'}
                >
                  {STATE_LABEL[r.state]}
                </Badge>
                {props.onSimulateReply && r.state === 'sent' && (
                  <Button
                    type="button"
                    size="sm"
                    variant="ghost"
                    aria-label={`Simulate a reply from ${r.name}`}
                    onClick={() => props.onSimulateReply!(r)}
                  >
                    <MessageSquareReply />
                  </Button>
                )}
                {props.onToggleRemove && (
                  <Button
                    type="button"
                    size="sm"
                    variant="ghost"
                    aria-label={removed ? `Keep ${r.name}` : `Remove ${r.name}`}
                    onClick={() => props.onToggleRemove!(r.contactId)}
                  >
                    <X />
                  </Button>
                )}
              </li>
            );
          })}
          <ShowMoreItem
            hasNextPage={recipients.hasNextPage}
            isFetchingNextPage={recipients.isFetchingNextPage}
            fetchNextPage={recipients.fetchNextPage}
          />
        </ul>
      )}
    </div>
  );
}
