import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BulkSelectionSchema } from '#domain/contacts/bulk-selection.schema.ts';
import {
  AddFromQueueSchema,
  AddToQueueResultSchema,
  CreateQueueSchema,
  DEFAULT_QUEUE_ID,
  QUEUE_MESSAGES,
  QueueListSchema,
  QueueMembersPageSchema,
  QueueMembersQuerySchema,
  QueueResponseSchema,
  RemovedMembersSchema,
  RemoveQueueMembersSchema,
  UpdateQueueSchema,
} from '#domain/contacts/queue.schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { withActor, type DbExecutor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { matchingIdsQuery } from '../contacts/public.ts';
import { ensureDefaultQueue } from './default-queue.repository.ts';
import { addSelectionToQueue } from './queue-fill.ts';
import { isOwnProject } from '../projects/public.ts';
import {
  addQueueMembers,
  deleteQueue,
  findQueueMembers,
  findQueues,
  getQueueSummary,
  insertQueue,
  lockQueue,
  queueContactIds,
  removeQueueMembers,
  renameQueue,
} from './queues.repository.ts';

const approved = { config: { access: 'approved' as const } };

/** A queue joins only one of the user's own projects; another user's is not found. */
async function checkProject(db: DbExecutor, userId: string, projectId: string | null) {
  if (projectId && !(await isOwnProject(db, userId, projectId)))
    throw new AppError('NOT_FOUND', 'Project not found');
}
const QueueParams = z.object({ queueId: z.uuid('Invalid queue id') });

/**
 * Call queues: list, create from ticked contacts or a whole filter, read, rename, add
 * and remove contacts, delete. Each change is one transaction: a refused create leaves no empty queue behind.
 * Another user's queue is not found. The default queue is kept by the CRM and cannot be renamed or deleted.
 */
export function registerQueueRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const asUser = <T>(userId: string, work: (trx: DbExecutor) => Promise<T>) =>
    withActor(ctx.db, { kind: 'user', userId }, work);

  typed.get(
    '/api/queues',
    { ...approved, schema: { response: { 200: QueueListSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      return asUser(userId, async (trx) => {
        const queues = await findQueues(trx, userId);
        // The default queue comes with the account (decision 058); one missing (its creation at sign-up failed) is
        // made here, once, so it is listed from the first visit, contacts or not.
        if (queues.some((q) => q.queueId === DEFAULT_QUEUE_ID)) return { queues };
        await ensureDefaultQueue(trx, userId);
        return { queues: await findQueues(trx, userId) };
      });
    },
  );

  typed.post(
    '/api/queues',
    { ...approved, schema: { body: CreateQueueSchema, response: { 201: QueueResponseSchema } } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      const { name, selection, projectId = null } = request.body;
      const queue = await asUser(userId, async (trx) => {
        await checkProject(trx, userId, projectId);
        const id = await insertQueue(trx, userId, name, projectId);
        const { added, adding } = await addSelectionToQueue(trx, userId, id, selection, ctx.clock());
        // None of the ids is the user's contact (deleted meanwhile, or never theirs): no queue is created.
        if (added === 0 && adding === 0)
          throw new AppError('VALIDATION_FAILED', QUEUE_MESSAGES.noContacts.description);
        return getQueueSummary(trx, userId, id);
      });
      return reply.status(201).send({ queue });
    },
  );

  typed.get(
    '/api/queues/:queueId',
    { ...approved, schema: { params: QueueParams, response: { 200: QueueResponseSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      return { queue: await asUser(userId, (trx) => getQueueSummary(trx, userId, request.params.queueId)) };
    },
  );

  typed.get(
    '/api/queues/:queueId/members',
    {
      ...approved,
      schema: {
        params: QueueParams,
        querystring: QueueMembersQuerySchema,
        response: { 200: QueueMembersPageSchema },
      },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      return asUser(userId, async (trx) => {
        const queue = await getQueueSummary(trx, userId, request.params.queueId);
        const { after, limit, search } = request.query;
        const matching = search
          ? matchingIdsQuery(
              trx,
              userId,
              { search, status: 'all', lastCalled: 'all', coldOnly: false },
              'all',
              ctx.clock(),
            )
          : undefined;
        return findQueueMembers(trx, queue.id, after, limit, matching);
      });
    },
  );

  /** Save Queue: name, added and removed contacts in one transaction; nothing is saved if any part is refused. */
  typed.patch(
    '/api/queues/:queueId',
    {
      ...approved,
      schema: { params: QueueParams, body: UpdateQueueSchema, response: { 200: QueueResponseSchema } },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      const { name, add, remove, projectId = null } = request.body;
      return asUser(userId, async (trx) => {
        const queue = await lockQueue(trx, userId, request.params.queueId);
        const now = ctx.clock();
        await checkProject(trx, userId, projectId);
        await renameQueue(trx, queue.id, name, projectId, now);
        if (remove?.length) await removeQueueMembers(trx, queue.id, remove, now);
        if (add) await addSelectionToQueue(trx, userId, queue.id, add, now);
        const saved = await getQueueSummary(trx, userId, queue.id);
        if (saved.total === 0 && !saved.filling)
          throw new AppError('VALIDATION_FAILED', QUEUE_MESSAGES.noContacts.description);
        return { queue: saved };
      });
    },
  );

  typed.delete(
    '/api/queues/:queueId',
    { ...approved, schema: { params: QueueParams } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      await asUser(userId, async (trx) =>
        deleteQueue(trx, (await lockQueue(trx, userId, request.params.queueId, { forDelete: true })).id),
      );
      return reply.status(204).send();
    },
  );

  /** Send to Campaign and Edit Queue's add: contacts already in the queue are ignored. */
  typed.post(
    '/api/queues/:queueId/members',
    {
      ...approved,
      schema: { params: QueueParams, body: BulkSelectionSchema, response: { 200: AddToQueueResultSchema } },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      return asUser(userId, async (trx) => {
        const queue = await lockQueue(trx, userId, request.params.queueId, { allowDefault: true });
        return addSelectionToQueue(trx, userId, queue.id, request.body, ctx.clock());
      });
    },
  );

  /** The import dialog's Call Queues tab: another queue's contacts join this one (those already here are ignored). */
  typed.post(
    '/api/queues/:queueId/members/from-queue',
    {
      ...approved,
      schema: { params: QueueParams, body: AddFromQueueSchema, response: { 200: AddToQueueResultSchema } },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      return asUser(userId, async (trx) => {
        const queue = await lockQueue(trx, userId, request.params.queueId, { allowDefault: true });
        const source = await getQueueSummary(trx, userId, request.body.sourceQueueId);
        const { added, considered } = await addQueueMembers(
          trx,
          userId,
          queue.id,
          queueContactIds(trx, source.id),
        );
        return { added, alreadyInQueue: considered - added, adding: 0 };
      });
    },
  );

  typed.post(
    '/api/queues/:queueId/members/remove',
    {
      ...approved,
      schema: {
        params: QueueParams,
        body: RemoveQueueMembersSchema,
        response: { 200: RemovedMembersSchema },
      },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      return asUser(userId, async (trx) => {
        const queue = await lockQueue(trx, userId, request.params.queueId);
        return { removed: await removeQueueMembers(trx, queue.id, request.body.ids, ctx.clock()) };
      });
    },
  );
}
