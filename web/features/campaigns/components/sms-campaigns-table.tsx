import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Pencil, Trash2 } from 'lucide-react';
import { CAMPAIGN_MESSAGES, campaignProgress } from '#domain/campaigns/email-campaign.schema.ts';
import type { SmsCampaign } from '#domain/campaigns/sms-campaign.schema.ts';
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
import { useDeleteSmsCampaign } from '../api/sms-campaigns-queries.ts';
import { STATUS_LABEL } from './campaign-status.ts';

/** The Campaigns tab's SMS table (spec part 2 §2.2): Name, Created, progress and status, Actions. */
export function SmsCampaignsTable({ campaigns }: { campaigns: SmsCampaign[] }) {
  const remove = useDeleteSmsCampaign();
  const [deleting, setDeleting] = useState<SmsCampaign | null>(null);
  if (campaigns.length === 0)
    return (
      <div className="rounded-md border border-dashed border-border p-8 text-center text-sm">
        <p className="font-medium">No SMS campaigns found</p>
        <p className="text-muted-foreground">Create a new campaign to get started</p>
      </div>
    );
  return (
    <>
      <Table aria-label="SMS campaigns">
        <TableHeader>
          <TableRow>
            <TableHead>Name</TableHead>
            <TableHead>Created</TableHead>
            <TableHead className="w-56">Progress</TableHead>
            <TableHead className="text-right">Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {campaigns.map((campaign) => {
            const { done, percent } = campaignProgress(campaign.counts);
            return (
              <TableRow key={campaign.id}>
                <TableCell className="font-medium">{campaign.name}</TableCell>
                <TableCell>{new Date(campaign.createdAt).toLocaleDateString()}</TableCell>
                <TableCell>
                  <div className="flex flex-col gap-1">
                    <span className="flex items-center gap-2 text-sm">
                      <Badge variant="secondary">{STATUS_LABEL[campaign.status]}</Badge>
                      {done.toLocaleString()} of {campaign.counts.total.toLocaleString()}
                    </span>
                    <Progress value={percent} label={`${campaign.name} progress`} />
                  </div>
                </TableCell>
                <TableCell>
                  <div className="flex justify-end gap-1">
                    <Button size="sm" variant="ghost" aria-label={`Open ${campaign.name}`} asChild>
                      <Link to={`/projects/sms/edit/${campaign.id}`} state={{ campaignName: campaign.name }}>
                        <Pencil />
                      </Link>
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Delete ${campaign.name}`}
                      onClick={() => setDeleting(campaign)}
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
        description="The campaign and its recipient list go."
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
