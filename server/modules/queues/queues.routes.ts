import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BulkSelectionSchema } from '#domain/contacts/bulk-selection.schema.ts';
import { AddToQueueResultSchema, QueueListSchema } from '#domain/contacts/queue.schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { withActor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { ensureDefaultQueue, matchingIdsQuery } from '../contacts/public.ts';
import { addQueueMembers, findQueue, findQueues } from './queues.repository.ts';

const approved = { config: { access: 'approved' as const } };

/** Call queues, as far as the contact list needs them: list them and add contacts (Send to Campaign). */
export function registerQueueRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/queues',
    { ...approved, schema: { response: { 200: QueueListSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      return withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
        await ensureDefaultQueue(trx, userId);
        return { queues: await findQueues(trx, userId) };
      });
    },
  );

  typed.post(
    '/api/queues/:queueId/members',
    {
      ...approved,
      schema: {
        params: z.object({ queueId: z.uuid('Invalid queue id') }),
        body: BulkSelectionSchema,
        response: { 200: AddToQueueResultSchema },
      },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      const body = request.body;
      return withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
        if (!(await findQueue(trx, userId, request.params.queueId)))
          throw new AppError('NOT_FOUND', 'Queue not found');
        const ids =
          'ids' in body
            ? body.ids
            : matchingIdsQuery(trx, userId, body.allMatching, body.allMatching.tab, ctx.clock());
        const { added, considered } = await addQueueMembers(trx, userId, request.params.queueId, ids);
        return { added, alreadyInQueue: considered - added };
      });
    },
  );
}
