import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { UseMutationResult } from '@tanstack/react-query';
import { Pencil, Trash2 } from 'lucide-react';
import { CAMPAIGN_MESSAGES } from '#domain/campaigns/campaign.schema.ts';
import { campaignProgress, type RecipientCounts } from '#domain/campaigns/campaign-state.ts';
import { formatDate } from '../../../lib/dates.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Progress } from '../../../components/ui/progress.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';

/** One campaign as the Campaigns tab's tables show it. */
export type CampaignRow = {
  id: string;
  name: string;
  createdAt: string;
  counts: RecipientCounts;
  status: string;
  /** Its own page. */
  path: string;
  /** The Type column (the Emails table: Sequence or Campaign); no column when absent. */
  type?: string;
};

/**
 * A table of the Campaigns tab: Name, (Type) Created, progress and status, Actions (open,
 * delete after a confirmation); the spec's empty text.
 */
export function CampaignTable(props: {
  label: string;
  rows: CampaignRow[];
  emptyTitle: string;
  remove: UseMutationResult<unknown, Error, string>;
  deleteDescription: string;
}) {
  const { remove } = props;
  const [deleting, setDeleting] = useState<CampaignRow | null>(null);
  const typed = props.rows.some((r) => r.type !== undefined);
  if (props.rows.length === 0)
    return (
      <div className="rounded-md border border-dashed border-border p-8 text-center text-sm">
        <p className="font-medium">{props.emptyTitle}</p>
        <p className="text-muted-foreground">Create a new campaign to get started</p>
      </div>
    );
  return (
    <>
      <Table aria-label={props.label}>
        <TableHeader>
          <TableRow>
            <TableHead>Name</TableHead>
            {typed && <TableHead>Type</TableHead>}
            <TableHead>Created</TableHead>
            <TableHead className="w-56">Progress</TableHead>
            <TableHead className="text-right">Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {props.rows.map((row) => {
            const { done, percent } = campaignProgress(row.counts);
            return (
              <TableRow key={row.id}>
                <TableCell className="font-medium">{row.name}</TableCell>
                {typed && <TableCell>{row.type}</TableCell>}
                <TableCell>{formatDate(row.createdAt)}</TableCell>
                <TableCell>
                  <div className="flex flex-col gap-1">
                    <span className="flex items-center gap-2 text-sm">
                      <Badge variant="secondary">{row.status}</Badge>
                      {done.toLocaleString()} of {row.counts.total.toLocaleString()}
                    </span>
                    <Progress value={percent} label={`${row.name} progress`} />
                  </div>
                </TableCell>
                <TableCell>
                  <div className="flex justify-end gap-1">
                    <Button size="sm" variant="ghost" aria-label={`Open ${row.name}`} asChild>
                      <Link to={row.path} state={{ campaignName: row.name }}>
                        <Pencil />
                      </Link>
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Delete ${row.name}`}
                      onClick={() => setDeleting(row)}
                    >
                      <Trash2 />
                    </Button>
                  </div>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={`Delete ${deleting?.name ?? 'campaign'}?`}
        description={props.deleteDescription}
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              setDeleting(null);
              toast.success('Campaign deleted');
            },
            onError: (error) =>
              toast.error('Error', { description: error.message || CAMPAIGN_MESSAGES.deleteFailed }),
          })
        }
      />
    </>
  );
}
