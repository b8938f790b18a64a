import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TelephonyProviderNameSchema } from '#domain/calls/call-status.ts';
import { withActor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import { registerProviderWebhooks, verifiedWebhookBody } from '../../telephony/provider-webhook.ts';
import { applyInboundSms } from './sms-inbound.service.ts';

/**
 * The number's "a message comes in" webhook: replies to our texts (STOP, START, HELP, anything). Public, as
 * providers call it, and exempt from the Origin check, but refused with 403 unless the provider's signature
 * verifies; nothing is written for a refused request. Answered in the provider's reply format.
 */
export function registerSmsInboundRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerProviderWebhooks(app, (scope) => {
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/api/telephony/:provider/sms-inbound',
      {
        config: { access: 'public', csrf: false },
        schema: { params: z.object({ provider: TelephonyProviderNameSchema }) },
      },
      async (request, reply) => {
        const body = verifiedWebhookBody(ctx.telephony, ctx.publicUrl, request, request.params.provider);
        const message = ctx.telephony.sms.parseInbound(body);
        const answer = message
          ? await withActor(ctx.db, { kind: 'system' }, (trx) => applyInboundSms(trx, message, ctx.clock()))
          : null;
        const response = ctx.telephony.sms.reply(answer);
        return reply.type(response.contentType).send(response.body);
      },
    );
  });
}
