import { RotateCcw } from 'lucide-react';
import { WALK_MESSAGES } from '#domain/dialer/queue-walk.ts';
import { Button } from '../../../components/ui/button.tsx';

/**
 * Why the walk offers no next contact: the queue is done, deleted, the rest must wait for their calling hours, or
 * are held by another tab or device.
 */
export function WalkNotice(props: {
  deleted: boolean;
  finished: boolean;
  heldElsewhere: number;
  filling: boolean;
  waiting: boolean;
  /** The consent gate's words when the contacts left must wait for their calling hours. */
  waitingFor?: string | null;
  restarting: boolean;
  onRestart: () => void;
}) {
  if (props.deleted)
    return (
      <p role="alert" className="rounded-md border border-border p-3 text-sm">
        {WALK_MESSAGES.deleted}
      </p>
    );
  if (props.finished)
    return (
      <div className="flex items-center gap-3 rounded-md border border-border p-3 text-sm">
        <p>{WALK_MESSAGES.allCalled}</p>
        <Button
          size="sm"
          variant="outline"
          className="ml-auto"
          disabled={props.restarting}
          onClick={props.onRestart}
        >
          <RotateCcw /> Start over
        </Button>
      </div>
    );
  if (props.waitingFor)
    return (
      <p role="status" className="rounded-md border border-border p-3 text-sm">
        {props.waitingFor}
      </p>
    );
  if (props.waiting)
    return (
      <p className="rounded-md border border-border p-3 text-sm text-muted-foreground">
        {props.heldElsewhere === 1
          ? 'The contact left is being called from another tab or device.'
          : props.heldElsewhere > 1
            ? `The ${props.heldElsewhere} contacts left are being called from another tab or device.`
            : props.filling
              ? 'More contacts are joining this queue; the next one shows here as soon as it is in.'
              : WALK_MESSAGES.empty}
      </p>
    );
  return null;
}
