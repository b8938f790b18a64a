import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TelephonyProviderNameSchema } from '#domain/calls/call-status.ts';
import { withActor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import { registerProviderWebhooks, verifiedWebhookBody } from '../../telephony/provider-webhook.ts';
import { applySmsDelivery } from './sms-recipient-events.repository.ts';

/**
 * The provider's SMS delivery reports (the status callback given with each message, our reference in its URL).
 * Public, as providers call it, and exempt from the Origin check, but refused with 403 unless the provider's
 * signature verifies; nothing is written for a refused request.
 */
export function registerSmsDeliveryRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerProviderWebhooks(app, (scope) => {
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/api/telephony/:provider/sms-status',
      {
        config: { access: 'public', csrf: false },
        schema: {
          params: z.object({ provider: TelephonyProviderNameSchema }),
          querystring: z.object({ ref: z.uuid().optional() }),
        },
      },
      async (request, reply) => {
        const body = verifiedWebhookBody(ctx.telephony, ctx.publicUrl, request, request.params.provider);
        const event = ctx.telephony.sms.parseStatus(body);
        if (event)
          await withActor(ctx.db, { kind: 'system' }, (trx) =>
            applySmsDelivery(trx, request.query.ref ?? null, event),
          );
        return reply.status(204).send();
      },
    );
  });
}
