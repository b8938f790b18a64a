import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SendingLimitsSchema } from '#domain/campaigns/campaign-pace.ts';
import { withActor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { findSendingLimits, saveSendingLimits } from './sending-limits.repository.ts';

/**
 * Settings → Email and Settings → Phone: at most N campaign e-mails, and text messages, a minute across all the
 * user's campaigns. Each user's campaigns of one channel send one at a time (their own job queue), so the limit
 * holds however many campaigns are under way.
 */
export function registerSendingLimitRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const approved = { config: { access: 'approved' as const } };
  typed.get(
    '/api/sending-limits',
    { ...approved, schema: { response: { 200: SendingLimitsSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      return withActor(ctx.db, { kind: 'user', userId }, (trx) => findSendingLimits(trx, userId));
    },
  );
  typed.put(
    '/api/sending-limits',
    { ...approved, schema: { body: SendingLimitsSchema, response: { 200: SendingLimitsSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      return withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
        await saveSendingLimits(trx, userId, request.body, ctx.clock());
        return findSendingLimits(trx, userId);
      });
    },
  );
}
