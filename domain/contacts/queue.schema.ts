import { z } from 'zod';

/** The per-user default queue (spec part 1 §4 contact sync, §9). */
export const DEFAULT_QUEUE_ID = 'default-all-contacts';
export const DEFAULT_QUEUE_NAME = 'All Synced Contacts';

export const QueueSummarySchema = z.object({
  id: z.string(),
  queueId: z.string(),
  name: z.string(),
  total: z.number().int(),
  completed: z.number().int(),
  createdAt: z.string(),
});
export type QueueSummary = z.infer<typeof QueueSummarySchema>;
export const QueueListSchema = z.object({ queues: z.array(QueueSummarySchema) });

export const AddToQueueResultSchema = z.object({ added: z.number().int(), alreadyInQueue: z.number().int() });
export type AddToQueueResult = z.infer<typeof AddToQueueResultSchema>;
