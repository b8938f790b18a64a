import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { UseMutationResult } from '@tanstack/react-query';
import { ArrowLeft, Pause, Play, Send, Trash2, XCircle } from 'lucide-react';
import { CAMPAIGN_MESSAGES } from '#domain/campaigns/campaign.schema.ts';
import type { CampaignTransition } from '#domain/campaigns/campaign-state.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Progress } from '../../../components/ui/progress.tsx';
import { PROJECTS_CAMPAIGNS } from './campaign-checks.ts';

type Action = CampaignTransition;
type Words = { title: string; description: string };

/**
 * The head of a campaign's page, whatever its kind: back to the Campaigns tab, name and status, live progress,
 * a notice (why it paused, where its mail goes), and Send, Pause, Resume, Cancel sending and Delete as its state
 * allows, the irreversible ones after a confirmation; each answered with a toast.
 */
export function CampaignControls(props: {
  id: string;
  name: string;
  status: string;
  progress: string;
  percent: number;
  notice?: ReactNode;
  allowed: Record<Action, boolean>;
  action: UseMutationResult<unknown, Error, Action>;
  remove: UseMutationResult<unknown, Error, string>;
  /** The toast each action ends with. */
  said: Record<Action, string>;
  sendLabel: string;
  confirmSend: Words & { label: string };
  confirmCancel: Words;
  confirmDelete: Words;
}) {
  const navigate = useNavigate();
  const { action, remove, allowed } = props;
  const [confirming, setConfirming] = useState<'send' | 'cancel' | 'delete' | null>(null);
  const run = (what: Action) =>
    action.mutate(what, {
      onSuccess: () => {
        setConfirming(null);
        toast.success(props.said[what]);
      },
      onError: (error) => toast.error('Error', { description: error.message }),
    });
  const close = (open: boolean) => !open && setConfirming(null);
  return (
    <Card>
      <CardHeader className="flex flex-row items-center gap-3">
        <Button variant="ghost" size="sm" aria-label="Back to campaigns" asChild>
          <Link to={PROJECTS_CAMPAIGNS}>
            <ArrowLeft />
          </Link>
        </Button>
        <CardTitle className="min-w-0 truncate">{props.name}</CardTitle>
        <Badge variant="secondary" aria-label="Campaign status">
          {props.status}
        </Badge>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <p className="text-sm" aria-label="Campaign progress">
          {props.progress}
        </p>
        <Progress value={props.percent} label={`${props.name} progress`} />
        {props.notice}
        <div className="flex flex-wrap gap-2">
          {allowed.send && (
            <Button onClick={() => setConfirming('send')} disabled={action.isPending}>
              <Send /> {props.sendLabel}
            </Button>
          )}
          {allowed.pause && (
            <Button variant="outline" onClick={() => run('pause')} disabled={action.isPending}>
              <Pause /> Pause
            </Button>
          )}
          {allowed.resume && (
            <Button variant="outline" onClick={() => run('resume')} disabled={action.isPending}>
              <Play /> Resume
            </Button>
          )}
          {allowed.cancel && (
            <Button variant="outline" onClick={() => setConfirming('cancel')} disabled={action.isPending}>
              <XCircle /> Cancel sending
            </Button>
          )}
          <Button variant="ghost" className="ml-auto" onClick={() => setConfirming('delete')}>
            <Trash2 /> Delete
          </Button>
        </div>
      </CardContent>
      <ConfirmDialog
        open={confirming === 'send'}
        onOpenChange={close}
        {...props.confirmSend}
        confirmLabel={props.confirmSend.label}
        busy={action.isPending}
        onConfirm={() => run('send')}
      />
      <ConfirmDialog
        open={confirming === 'cancel'}
        onOpenChange={close}
        {...props.confirmCancel}
        confirmLabel="Cancel sending"
        busy={action.isPending}
        onConfirm={() => run('cancel')}
      />
      <ConfirmDialog
        open={confirming === 'delete'}
        onOpenChange={close}
        {...props.confirmDelete}
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={() =>
          remove.mutate(props.id, {
            onSuccess: () => {
              toast.success('Campaign deleted');
              void navigate(PROJECTS_CAMPAIGNS);
            },
            onError: (error) =>
              toast.error('Error', { description: error.message || CAMPAIGN_MESSAGES.deleteFailed }),
          })
        }
      />
    </Card>
  );
}

/** A campaign's page that could not load ('Error loading campaign'), or one that is not the user's. */
export function CampaignLoadFailed({ error }: { error: Error }) {
  return (
    <div role="alert" className="mx-auto max-w-3xl rounded-md border border-border p-4 text-sm">
      <p className="font-medium">{CAMPAIGN_MESSAGES.loadFailed.title}</p>
      <p className="text-muted-foreground">
        {error.message === CAMPAIGN_MESSAGES.notFound
          ? CAMPAIGN_MESSAGES.notFound
          : CAMPAIGN_MESSAGES.loadFailed.description}
      </p>
      <Link to={PROJECTS_CAMPAIGNS} className="underline">
        Back to campaigns
      </Link>
    </div>
  );
}
