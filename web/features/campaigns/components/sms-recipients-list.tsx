import { useState } from 'react';
import { MessageSquareReply } from 'lucide-react';
import type { RecipientState } from '#domain/campaigns/email-campaign.schema.ts';
import type { SmsDelivery, SmsRecipient } from '#domain/campaigns/sms-campaign.schema.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useSmsRecipients } from '../api/sms-campaigns-queries.ts';
import { RECIPIENT_STATE_LABEL, RecipientListFrame, RemoveToggle } from './recipient-list-frame.tsx';

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
  return (
    <RecipientListFrame
      id="sms-recipient-state"
      labels={RECIPIENT_STATE_LABEL}
      state={state}
      onStateChange={setState}
      recipients={recipients}
      row={(r) => {
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
            <Badge variant={r.state === 'failed' || r.state === 'unconfirmed' ? 'destructive' : 'secondary'}>
              {RECIPIENT_STATE_LABEL[r.state]}
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
              <RemoveToggle
                name={r.name}
                removed={removed}
                onToggle={() => props.onToggleRemove!(r.contactId)}
              />
            )}
          </li>
        );
      }}
    />
  );
}
