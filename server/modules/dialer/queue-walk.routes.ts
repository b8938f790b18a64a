import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { QueueResponseSchema } from '#domain/contacts/queue.schema.ts';
import {
  CompleteMemberSchema,
  WalkerSchema,
  WalkStepSchema,
  type SkippedContact,
  type WalkContact,
  type WalkStep,
} from '#domain/dialer/queue-walk.ts';
import { withActorRetryingDeadlocks, type DbExecutor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import {
  completeQueueMembers,
  getQueueSummary,
  getWalkedQueue,
  heldContact,
  lockQueue,
  releaseHolds,
  renewHold,
  restartQueue,
  storeWalkIndex,
} from '../queues/public.ts';
import { takeNextContact } from './next-contact.ts';

const approved = { config: { access: 'approved' as const } };
const QueueParams = z.object({ queueId: z.uuid('Invalid queue id') });

/**
 * A queue's walk (docs/decisions/015-queue-walks.md). Every step takes the queue's row
 * lock first, so two walkers (tabs, devices, pop-outs) are served one after the other and never get the same
 * contact. Progress is the members' completed flags: Save & Exit only lets go of the held contact, and opening the
 * queue again, anywhere, resumes at the first open contact.
 */
export function registerQueueWalkRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const asUser = <T>(userId: string, work: (trx: DbExecutor) => Promise<T>) =>
    withActorRetryingDeadlocks(ctx.db, { kind: 'user', userId }, work);

  const step = async (
    trx: DbExecutor,
    userId: string,
    queueId: string,
    walker: string,
    found: { contact: WalkContact | null; skipped: SkippedContact[]; waiting?: WalkStep['waiting'] },
  ): Promise<WalkStep> => {
    const { summary, heldElsewhere } = await getWalkedQueue(trx, userId, queueId, walker, ctx.clock());
    return {
      queue: summary,
      contact: found.contact,
      skipped: found.skipped,
      heldElsewhere,
      waiting: found.waiting ?? null,
    };
  };

  /** The contact this walker is on (renewing its hold), or the next one it takes. */
  const next = async (trx: DbExecutor, userId: string, queueId: string, walker: string) => {
    const now = ctx.clock();
    const held = await heldContact(trx, queueId, walker);
    if (held) {
      await renewHold(trx, queueId, walker, now);
      return { contact: held, skipped: [] };
    }
    const found = await takeNextContact(trx, userId, queueId, walker, now);
    if (found.skipped.length > 0) await storeWalkIndex(trx, queueId, now);
    return found;
  };

  typed.post(
    '/api/queues/:queueId/walk',
    { ...approved, schema: { params: QueueParams, body: WalkerSchema, response: { 200: WalkStepSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      const { walker } = request.body;
      return asUser(userId, async (trx) => {
        const queue = await lockQueue(trx, userId, request.params.queueId, { allowDefault: true });
        return step(trx, userId, queue.id, walker, await next(trx, userId, queue.id, walker));
      });
    },
  );

  /** Mark as Completed (the pop-out): the contact is done without a disposition; the next follows. */
  typed.post(
    '/api/queues/:queueId/walk/complete',
    {
      ...approved,
      schema: { params: QueueParams, body: CompleteMemberSchema, response: { 200: WalkStepSchema } },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      const { walker, contactId } = request.body;
      return asUser(userId, async (trx) => {
        const queue = await lockQueue(trx, userId, request.params.queueId, { allowDefault: true });
        await completeQueueMembers(trx, queue.id, [contactId], ctx.clock());
        await storeWalkIndex(trx, queue.id, ctx.clock());
        return step(trx, userId, queue.id, walker, await next(trx, userId, queue.id, walker));
      });
    },
  );

  /** Save & Exit: the walker lets go of its contact; completed stays stored. */
  typed.post(
    '/api/queues/:queueId/walk/release',
    {
      ...approved,
      schema: { params: QueueParams, body: WalkerSchema, response: { 200: QueueResponseSchema } },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      return asUser(userId, async (trx) => {
        const queue = await lockQueue(trx, userId, request.params.queueId, { allowDefault: true });
        await releaseHolds(trx, queue.id, request.body.walker);
        await storeWalkIndex(trx, queue.id, ctx.clock());
        return { queue: await getQueueSummary(trx, userId, queue.id) };
      });
    },
  );

  /** Start over: a completed queue (or any) opens all its contacts again. */
  typed.post(
    '/api/queues/:queueId/restart',
    { ...approved, schema: { params: QueueParams, response: { 200: QueueResponseSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      return asUser(userId, async (trx) => {
        const queue = await lockQueue(trx, userId, request.params.queueId, { allowDefault: true });
        await restartQueue(trx, queue.id, ctx.clock());
        return { queue: await getQueueSummary(trx, userId, queue.id) };
      });
    },
  );
}
