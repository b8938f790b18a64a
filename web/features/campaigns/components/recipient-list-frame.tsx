import type { ReactNode } from 'react';
import { X } from 'lucide-react';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { RecipientState } from '#domain/campaigns/email-campaign.schema.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { ShowMoreItem } from '../../../components/ui/show-more-item.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';

export const RECIPIENT_STATE_LABEL: Record<RecipientState, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
  skipped: 'Skipped',
  unconfirmed: 'Unconfirmed',
};

/**
 * What every campaign's recipient list shares: the state filter, the list (400px, scrolling), its empty and error
 * texts, and the page-by-page "Show more". Each kind draws its own rows.
 */
export function RecipientListFrame<R extends { contactId: string }>(props: {
  id: string;
  labels: Record<RecipientState, string>;
  state: RecipientState | 'all';
  onStateChange: (state: RecipientState | 'all') => void;
  recipients: UseInfiniteQueryResult<InfiniteData<{ recipients: R[] }>>;
  row: (recipient: R) => ReactNode;
}) {
  const { recipients } = props;
  const rows = recipients.data?.pages.flatMap((p) => p.recipients) ?? [];
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center gap-2">
        <Label htmlFor={props.id}>Show</Label>
        <NativeSelect
          id={props.id}
          className="w-44"
          value={props.state}
          onChange={(e) => props.onStateChange(e.target.value as RecipientState | 'all')}
        >
          <option value="all">Every recipient</option>
          {Object.entries(props.labels).map(([value, label]) => (
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
          {rows.map(props.row)}
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

/** A draft's recipient marked for removal (struck through) or kept, until the campaign is saved. */
export function RemoveToggle(props: { name: string; removed: boolean; onToggle: () => void }) {
  return (
    <Button
      type="button"
      size="sm"
      variant="ghost"
      aria-label={props.removed ? `Keep ${props.name}` : `Remove ${props.name}`}
      onClick={props.onToggle}
    >
      <X />
    </Button>
  );
}
