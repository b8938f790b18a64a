import type { QueueSummary } from '#domain/contacts/queue.schema.ts';

/**
 * A queue whose contacts are still joining in the background (a large selection): how far it has come, and why the
 * last attempt failed if it did (the server retries it, and says when it has stopped trying). Nothing once complete.
 */
export function QueueFillNote({ queue }: { queue: Pick<QueueSummary, 'filling'> }) {
  if (!queue.filling) return null;
  const { added, expected, error } = queue.filling;
  return (
    <span className="text-muted-foreground text-xs" role="status">
      {error
        ? `Adding contacts paused: ${error}`
        : `Adding contacts… ${added.toLocaleString()} of ${expected.toLocaleString()}`}
    </span>
  );
}
