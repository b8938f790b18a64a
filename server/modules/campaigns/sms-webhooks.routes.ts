import formBody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TelephonyProviderNameSchema } from '#domain/calls/call-status.ts';
import {
  deliveryMovesForward,
  SMS_REPLIES,
  SMS_SKIP_REASONS,
  smsKeyword,
} from '#domain/campaigns/sms-campaign.schema.ts';
import { normalizePhone } from '#domain/contacts/phone.ts';
import { withActor, type DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import type { InboundSms, SmsStatusEvent } from '../../telephony/telephony-provider.ts';

/** A delivery report moves its message forward, never back (reports may come twice or out of order). */
async function applyDelivery(trx: DbExecutor, ref: string | null, event: SmsStatusEvent): Promise<void> {
  let query = trx
    .selectFrom('sms_campaign_recipients')
    .select(['campaign_id', 'contact_id', 'delivery'])
    .forUpdate();
  query = ref
    ? query.where('send_ref', '=', ref)
    : query.where('provider_message_id', '=', event.providerMessageId);
  const row = await query.executeTakeFirst();
  if (!row || !deliveryMovesForward(row.delivery, event.status)) return;
  await trx
    .updateTable('sms_campaign_recipients')
    .set({ delivery: event.status, delivery_error: event.error?.slice(0, 1000) ?? null })
    .where('campaign_id', '=', row.campaign_id)
    .where('contact_id', '=', row.contact_id)
    .execute();
}

/**
 * A message someone sent us (issue 12): STOP and its fellows put the number on the opt-out list, and it leaves
 * every campaign that has not messaged it yet; START / UNSTOP take it off; HELP is answered. The text is kept as
 * the reply on the last message this number got from that number of ours. Returns the answer to send back.
 */
async function applyInbound(trx: DbExecutor, message: InboundSms, now: Date): Promise<string | null> {
  const from = normalizePhone(message.from) ?? message.from;
  const to = normalizePhone(message.to) ?? message.to;
  const keyword = smsKeyword(message.body);
  if (keyword === 'stop') {
    await trx
      .insertInto('sms_opt_outs')
      .values({ phone: from, keyword: message.body.trim().toUpperCase().slice(0, 20) })
      .onConflict((oc) =>
        oc.column('phone').doUpdateSet({ keyword: message.body.trim().toUpperCase().slice(0, 20) }),
      )
      .execute();
    await trx
      .updateTable('sms_campaign_recipients')
      .set({ state: 'skipped', reason: SMS_SKIP_REASONS.optedOut })
      .where('phone', '=', from)
      .where('state', '=', 'queued')
      .execute();
  }
  if (keyword === 'start') await trx.deleteFrom('sms_opt_outs').where('phone', '=', from).execute();
  const last = await trx
    .selectFrom('sms_campaign_recipients')
    .select(['campaign_id', 'contact_id'])
    .where('phone', '=', from)
    .where('from_number', '=', to)
    .where('state', '=', 'sent')
    .orderBy('sent_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (last)
    await trx
      .updateTable('sms_campaign_recipients')
      .set({ reply: message.body.slice(0, 1600), replied_at: now })
      .where('campaign_id', '=', last.campaign_id)
      .where('contact_id', '=', last.contact_id)
      .execute();
  return keyword === 'help' ? SMS_REPLIES.help : null;
}

/**
 * The provider's SMS webhooks (issue 12): delivery reports (the status callback given with each message, our
 * reference in its URL) and messages received (the number's inbound webhook). Public, as providers call them, and
 * exempt from the Origin check, but refused with 403 unless the provider's signature verifies; nothing is written
 * for a refused request.
 */
export function registerSmsWebhookRoutes(app: FastifyInstance, ctx: AppContext): void {
  void app.register(async (scope) => {
    await scope.register(formBody);
    const typed = scope.withTypeProvider<ZodTypeProvider>();
    const verified = (
      request: { url: string; headers: Record<string, string | string[] | undefined>; body: unknown },
      provider: string,
    ) => {
      if (provider !== ctx.telephony.name) throw new AppError('NOT_FOUND', 'Unknown provider');
      const body = (request.body ?? {}) as Record<string, string>;
      const url = `${ctx.publicUrl}${request.url}`;
      if (typeof body !== 'object' || !ctx.telephony.verifyWebhook({ url, headers: request.headers, body }))
        throw new AppError('FORBIDDEN', 'The webhook signature does not verify');
      return body;
    };

    typed.post(
      '/api/telephony/:provider/sms-status',
      {
        config: { access: 'public', csrf: false },
        schema: {
          params: z.object({ provider: TelephonyProviderNameSchema }),
          querystring: z.object({ ref: z.uuid().optional() }),
        },
      },
      async (request, reply) => {
        const body = verified(request, request.params.provider);
        const event = ctx.telephony.sms.parseStatus(body);
        if (event)
          await withActor(ctx.db, { kind: 'system' }, (trx) =>
            applyDelivery(trx, request.query.ref ?? null, event),
          );
        return reply.status(204).send();
      },
    );

    typed.post(
      '/api/telephony/:provider/sms-inbound',
      {
        config: { access: 'public', csrf: false },
        schema: { params: z.object({ provider: TelephonyProviderNameSchema }) },
      },
      async (request, reply) => {
        const body = verified(request, request.params.provider);
        const message = ctx.telephony.sms.parseInbound(body);
        const answer = message
          ? await withActor(ctx.db, { kind: 'system' }, (trx) => applyInbound(trx, message, ctx.clock()))
          : null;
        const response = ctx.telephony.sms.reply(answer);
        return reply.type(response.contentType).send(response.body);
      },
    );
  });
}
