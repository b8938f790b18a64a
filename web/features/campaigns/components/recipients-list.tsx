import { useState } from 'react';
import { LogOut, X } from 'lucide-react';
import type { RecipientState } from '#domain/campaigns/email-campaign.schema.ts';
import { sequenceProgressText } from '#domain/campaigns/email-sequence.schema.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { ShowMoreItem } from '../../../components/ui/show-more-item.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useRecipients } from '../api/email-campaigns-queries.ts';

const STATE_LABEL: Record<RecipientState, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
  skipped: 'Skipped',
  unconfirmed: 'Unconfirmed',
};
/** In a sequence, a queued recipient is waiting for its next e-mail, and a sent one has had them all. */
const SEQUENCE_STATE_LABEL: Record<RecipientState, string> = {
  ...STATE_LABEL,
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
  const labels = props.stepCount === undefined ? STATE_LABEL : SEQUENCE_STATE_LABEL;
  const [state, setState] = useState<RecipientState | 'all'>('all');
  const recipients = useRecipients(props.campaignId, state);
  const rows = recipients.data?.pages.flatMap((p) => p.recipients) ?? [];
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center gap-2">
        <Label htmlFor="recipient-state">Show</Label>
        <NativeSelect
          id="recipient-state"
          className="w-44"
          value={state}
          onChange={(e) => setState(e.target.value as RecipientState | 'all')}
        >
          <option value="all">Every recipient</option>
          {Object.entries(labels).map(([value, label]) => (
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
                <Badge
                  variant={r.state === 'failed' || r.state === 'unconfirmed' ? 'destructive' : 'secondary'}
                >
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
