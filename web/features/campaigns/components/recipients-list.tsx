import { useState } from 'react';
import { LogOut } from 'lucide-react';
import type { RecipientState } from '#domain/campaigns/email-campaign.schema.ts';
import { sequenceProgressText } from '#domain/campaigns/email-sequence.schema.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useRecipients } from '../api/email-campaigns-queries.ts';
import { RECIPIENT_STATE_LABEL, RecipientListFrame, RemoveToggle } from './recipient-list-frame.tsx';

/** In a sequence, a queued recipient is waiting for its next e-mail, and a sent one has had them all. */
const SEQUENCE_STATE_LABEL: Record<RecipientState, string> = {
  ...RECIPIENT_STATE_LABEL,
  queued: 'In sequence',
  sent: 'Completed',
};
const formatDay = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * A campaign's recipients in send order with each one's state and why (the server's words for a failure, the
 * reason for a skip), filtered by state, page by page. On a draft each can be marked for removal. In a sequence
 * (`stepCount`) each says how many of its e-mails it has had and when the next is due, and one still in the
 * sequence can be taken out (`onLeave`).
 */
export function RecipientsList(props: {
  campaignId: string;
  removed?: Set<string>;
  onToggleRemove?: (contactId: string) => void;
  stepCount?: number;
  onLeave?: (contactId: string, name: string) => void;
}) {
  const labels = props.stepCount === undefined ? RECIPIENT_STATE_LABEL : SEQUENCE_STATE_LABEL;
  const [state, setState] = useState<RecipientState | 'all'>('all');
  const recipients = useRecipients(props.campaignId, state);
  return (
    <RecipientListFrame
      id="recipient-state"
      labels={labels}
      state={state}
      onStateChange={setState}
      recipients={recipients}
      row={(r) => {
        const removed = props.removed?.has(r.contactId) ?? false;
        return (
          <li key={r.contactId} className="flex items-center gap-3 p-2" aria-label={r.name}>
            <div className="min-w-0 flex-1">
              <p className={removed ? 'truncate line-through' : 'truncate'}>
                {r.name}
                {r.email && <span className="text-muted-foreground"> · {r.email}</span>}
              </p>
              {props.stepCount !== undefined && (
                <p className="text-xs text-muted-foreground">
                  {sequenceProgressText(r, props.stepCount, formatDay)}
                </p>
              )}
              {(r.reason || r.delivery === 'outbox') && (
                <p className="text-xs text-muted-foreground">
                  {r.reason ?? 'Saved to your outbox: no mail server is configured'}
                </p>
              )}
            </div>
            <Badge variant={r.state === 'failed' || r.state === 'unconfirmed' ? 'destructive' : 'secondary'}>
              {r.delivery === 'outbox' && props.stepCount === undefined ? 'In outbox' : labels[r.state]}
            </Badge>
            {props.onLeave && (r.state === 'queued' || r.state === 'sending') && (
              <Button
                type="button"
                size="sm"
                variant="ghost"
                aria-label={`Take ${r.name} out of the sequence`}
                onClick={() => props.onLeave!(r.contactId, r.name)}
              >
                <LogOut />
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
