import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SimulateReplySchema, SMS_MESSAGES } from '#domain/campaigns/sms-campaign.schema.ts';
import { withActor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { findSentMessage, getSmsCampaign } from './sms-campaigns.repository.ts';

const RecipientParams = z.object({
  campaignId: z.uuid('Invalid campaign id'),
  contactId: z.uuid('Invalid contact id'),
});

/**
 * The simulator's "Simulate reply" (DECISIONS.md): the recipient answers the message they got, through the same
 * signed inbound webhook a provider calls, marked as this user's simulation, so it reaches only this user's
 * records. Only for a recipient who was sent a message, and only on the simulator.
 */
export function registerSimulatedReplyRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/sms-campaigns/:campaignId/recipients/:contactId/simulate-reply',
    {
      config: { access: 'approved' },
      schema: {
        params: RecipientParams,
        body: SimulateReplySchema,
        response: { 200: z.object({ reply: z.string().nullable() }) },
      },
    },
    async (request) => {
      const simulate = ctx.telephony.sms.simulateInbound;
      if (!simulate) throw new AppError('NOT_FOUND', SMS_MESSAGES.simulatorOnly);
      const userId = viewerOf(request).userId;
      const sent = await withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
        const campaign = await getSmsCampaign(trx, userId, request.params.campaignId);
        return findSentMessage(trx, campaign.id, request.params.contactId);
      });
      if (!sent) throw new AppError('CONFLICT', SMS_MESSAGES.notSentTo);
      const answer = await simulate({
        from: sent.phone,
        to: sent.fromNumber,
        body: request.body.text,
        userId,
      });
      return { reply: answer };
    },
  );
}
