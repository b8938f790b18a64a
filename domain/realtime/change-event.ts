import { z } from 'zod';

/**
 * A change notice relayed from PostgreSQL (pg_notify) to browsers over Server-Sent Events. `topic` names the query
 * family the browser refetches; `userId` is whose data changed (null = visible to admins only, e.g. profiles).
 */
export const ChangeTopicSchema = z.enum([
  'profiles',
  'contacts',
  'email',
  'calls',
  'queues',
  'projects',
  'campaigns',
  'notifications',
]);
export type ChangeTopic = z.infer<typeof ChangeTopicSchema>;

export const ChangeEventSchema = z.object({
  topic: ChangeTopicSchema,
  op: z.enum(['INSERT', 'UPDATE', 'DELETE']),
  id: z.string(),
  userId: z.string().nullable(),
  role: z.string().nullable().optional(),
  deactivated: z.boolean().optional(),
});
export type ChangeEvent = z.infer<typeof ChangeEventSchema>;

/** Whether a connected viewer should receive a change: their own rows, and every profile change for admins. */
export function isChangeVisibleTo(event: ChangeEvent, viewer: { userId: string; isAdmin: boolean }): boolean {
  if (event.topic === 'profiles') return viewer.isAdmin || event.userId === viewer.userId;
  return event.userId === viewer.userId;
}
