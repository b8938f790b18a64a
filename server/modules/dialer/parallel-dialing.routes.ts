import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DialingSettingsSchema,
  ParallelStateSchema,
  StartRoundSchema,
  WalkerQuerySchema,
} from '#domain/dialer/parallel-dialing.schema.ts';
import { withActorRetryingDeadlocks, type DbExecutor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { pauseOpenRound } from '../calls/public.ts';
import { lockQueue, saveDialingSettings } from '../queues/public.ts';
import { parallelState, startRound } from './parallel-round.ts';

const approved = { config: { access: 'approved' as const } };
const QueueParams = z.object({ queueId: z.uuid('Invalid queue id') });

/**
 * Parallel dialing (docs/decisions/026-parallel-dialing-pacing.md): a queue's mode and abandonment cap, a walker's
 * state (the latest round, the abandonment rates, the next round's lines), starting a round and pausing it. Another
 * user's queue is not found.
 */
export function registerParallelDialingRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const asUser = <T>(userId: string, work: (trx: DbExecutor) => Promise<T>) =>
    withActorRetryingDeadlocks(ctx.db, { kind: 'user', userId }, work);

  typed.get(
    '/api/queues/:queueId/parallel',
    {
      ...approved,
      schema: { params: QueueParams, querystring: WalkerQuerySchema, response: { 200: ParallelStateSchema } },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      return asUser(userId, (trx) =>
        parallelState(trx, userId, request.params.queueId, request.query.walker, ctx.clock()),
      );
    },
  );

  /** Power or Parallel, and the queue's abandonment cap (never above the law's 3 %). */
  typed.put(
    '/api/queues/:queueId/dialing',
    {
      ...approved,
      schema: {
        params: QueueParams,
        body: DialingSettingsSchema,
        response: { 200: z.object({ settings: DialingSettingsSchema }) },
      },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      return asUser(userId, async (trx) => {
        const queue = await lockQueue(trx, userId, request.params.queueId, { allowDefault: true });
        await saveDialingSettings(trx, queue.id, request.body, ctx.clock());
        return { settings: request.body };
      });
    },
  );

  typed.post(
    '/api/queues/:queueId/parallel/round',
    {
      ...approved,
      schema: { params: QueueParams, body: StartRoundSchema, response: { 200: ParallelStateSchema } },
    },
    async (request) => startRound(ctx, viewerOf(request).userId, request.params.queueId, request.body.walker),
  );

  /** Pause: lines still ringing are hung up and their contacts go back to the queue; an answered one is kept. */
  typed.post(
    '/api/queues/:queueId/parallel/pause',
    {
      ...approved,
      schema: { params: QueueParams, body: StartRoundSchema, response: { 200: ParallelStateSchema } },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      const { walker } = request.body;
      const queue = await asUser(userId, (trx) =>
        lockQueue(trx, userId, request.params.queueId, { allowDefault: true }),
      );
      await pauseOpenRound(ctx, userId, queue.id, walker);
      return asUser(userId, (trx) => parallelState(trx, userId, queue.id, walker, ctx.clock()));
    },
  );
}
