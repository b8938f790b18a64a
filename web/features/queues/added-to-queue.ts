import type { AddToQueueResult, QueueSummary } from '#domain/contacts/queue.schema.ts';

/** What a toast says after contacts were added to a queue: how many joined, or are joining in the background. */
export function addedToQueueText(result: AddToQueueResult, queueName = 'the queue'): string {
  if (result.adding > 0)
    return `${result.adding.toLocaleString()} contact(s) are joining ${queueName} in the background.`;
  return `${result.added} added to ${queueName}${result.alreadyInQueue ? `, ${result.alreadyInQueue} already there` : ''}.`;
}

/** What the 'Queue created' toast says: how many contacts it holds, or are joining it in the background. */
export function createdQueueText(queue: Pick<QueueSummary, 'name' | 'total' | 'filling'>): string {
  return queue.filling
    ? `${queue.filling.expected.toLocaleString()} contact(s) are joining ${queue.name} in the background; you can start calling now.`
    : `${queue.total.toLocaleString()} contact(s) in ${queue.name}.`;
}
