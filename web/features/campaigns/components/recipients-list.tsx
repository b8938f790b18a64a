import { useState, type ReactNode } from 'react';
import { X } from 'lucide-react';
import type { CampaignChannel, RecipientState } from '#domain/campaigns/campaign-state.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { ShowMoreItem } from '../../../components/ui/show-more-item.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useRecipients, type RecipientOf } from '../api/campaign-queries.ts';

export const RECIPIENT_STATE_LABEL: Record<RecipientState, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
  skipped: 'Skipped',
  unconfirmed: 'Unconfirmed',
};

/** What a channel says on a recipient's row: where the message went, lines of detail, and its badge. */
export type RecipientLine = { address: string | null; notes: string[]; badge: string };

/**
 * A campaign's recipients in send order with each one's state and why (the server's words for a failure, the
 * reason for a skip), filtered by state, page by page in a 400px scrolling list. The channel says what each row
 * shows (`describe`) and may add buttons (`actions`); on a draft each can be marked for removal.
 */
export function RecipientsList<K extends CampaignChannel>(props: {
  channel: K;
  campaignId: string;
  labels?: Record<RecipientState, string>;
  describe: (recipient: RecipientOf<K>) => RecipientLine;
  actions?: (recipient: RecipientOf<K>) => ReactNode;
  removed?: Set<string>;
  onToggleRemove?: (contactId: string) => void;
}) {
  const labels = props.labels ?? RECIPIENT_STATE_LABEL;
  const [state, setState] = useState<RecipientState | 'all'>('all');
  const recipients = useRecipients(props.channel, props.campaignId, state);
  const rows = recipients.data?.pages.flatMap((p) => p.recipients) ?? [];
  const id = `${props.channel}-recipient-state`;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center gap-2">
        <Label htmlFor={id}>Show</Label>
        <NativeSelect
          id={id}
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
            const line = props.describe(r);
            return (
              <li key={r.contactId} className="flex items-center gap-3 p-2" aria-label={r.name}>
                <div className="min-w-0 flex-1">
                  <p className={removed ? 'truncate line-through' : 'truncate'}>
                    {r.name}
                    {line.address && <span className="text-muted-foreground"> · {line.address}</span>}
                  </p>
                  {line.notes.map((note) => (
                    <p key={note} className="text-xs text-muted-foreground">
                      {note}
                    </p>
                  ))}
                </div>
                <Badge
                  variant={r.state === 'failed' || r.state === 'unconfirmed' ? 'destructive' : 'secondary'}
                >
                  {line.badge}
                </Badge>
                {props.actions?.(r)}
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
