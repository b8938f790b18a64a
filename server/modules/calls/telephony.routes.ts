import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TelephonyProviderNameSchema } from '#domain/calls/call-status.ts';
import { withActor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { parseTwilioStyleAmd, userOfClient } from '../../telephony/telephony-provider.ts';
import { registerProviderWebhooks, verifiedWebhookBody } from '../../telephony/provider-webhook.ts';
import { RECORDING_DISCLOSURE } from '#domain/consent/recording-rules.ts';
import {
  applyStatusEvent,
  claimBrowserCall,
  findCallForRecording,
  recordAnsweredBy,
} from './calls.repository.ts';
import { applyLineEvent } from './dial-rounds.service.ts';

/**
 * Status webhooks: the provider (or the simulator, through the same route) reports a call's progress.
 * Public, as providers call it, and exempt from the Origin check, but refused unless the provider's signature
 * verifies; nothing is written for a refused request. Events may come twice or out of order: a call only moves
 * forward (applyStatusEvent). An event may also come before the provider's answer to placeCall is stored: our call
 * id in the callback URL finds the call then. A call we gave up on before the provider answered (a timeout, or
 * END CALL meanwhile) but which the provider placed all the same is hung up when its first event arrives.
 */
export function registerTelephonyRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerProviderWebhooks(app, (scope) => {
    const typed = scope.withTypeProvider<ZodTypeProvider>();
    typed.post(
      '/api/telephony/:provider/status',
      {
        config: { access: 'public', csrf: false },
        schema: {
          params: z.object({ provider: TelephonyProviderNameSchema }),
          // Our call id, set in the status callback URL when the call was placed (signed with the URL).
          querystring: z.object({ callId: z.string().uuid().optional() }),
        },
      },
      async (request, reply) => {
        const provider = ctx.telephony;
        const body = verifiedWebhookBody(provider, ctx.publicUrl, request, request.params.provider);
        const event = provider.parseStatus(body);
        // Answering-machine detection posts to the same URL: who answered, with or without a status.
        const amd = parseTwilioStyleAmd(body);
        if (amd) {
          const detected = await withActor(ctx.db, { kind: 'system' }, (trx) =>
            recordAnsweredBy(
              trx,
              { provider: provider.name, callId: request.query.callId ?? null, ...amd },
              ctx.clock(),
            ),
          );
          // A line of a parallel round: the first person is connected, a machine hung up (decision 026).
          if (detected?.roundId) await applyLineEvent(ctx, detected.userId, detected.roundId);
        }
        if (!event) return reply.status(204).send();
        const result = await withActor(ctx.db, { kind: 'system' }, (trx) =>
          applyStatusEvent(
            trx,
            { provider: provider.name, callId: request.query.callId ?? null, ...event },
            ctx.clock(),
          ),
        );
        if (result.applied && result.userId && result.roundId)
          await applyLineEvent(ctx, result.userId, result.roundId);
        // A call we had given up on (the provider answered too late) must not ring on unattended.
        if (result.orphan)
          await provider
            .hangUp(event.providerCallId)
            .catch((error: unknown) =>
              request.log.error(
                { err: error, providerCallId: event.providerCallId },
                'could not hang up a late call',
              ),
            );
        return reply.status(204).send();
      },
    );

    /**
     * The Voice URL of the TwiML App (Twilio): the browser phone's Device.connect({ callId }) lands here. The
     * call must be one this user's browser asked the server for (POST /api/calls with via 'browser'), so every
     * rule was already applied; the number dialled is the one recorded then, never one from the request.
     */
    typed.post(
      '/api/telephony/twilio/voice',
      { config: { access: 'public', csrf: false } },
      async (request, reply) => {
        const phone = ctx.telephony.browserPhone;
        if (!phone) throw new AppError('NOT_FOUND', 'Unknown provider');
        const body = verifiedWebhookBody(ctx.telephony, ctx.publicUrl, request, 'twilio');
        const twiml = (xml: string) => reply.type('text/xml').send(xml);
        const callId = z.uuid().safeParse(body.callId);
        const userId = userOfClient(body.From);
        if (!callId.success || !userId)
          return twiml(phone.refuseTwiml('This call did not come from CallCRM.'));
        const claimed = await withActor(ctx.db, { kind: 'system' }, (trx) =>
          claimBrowserCall(trx, callId.data, userId, ctx.clock()),
        );
        if (!claimed) return twiml(phone.refuseTwiml('This call was already placed or has expired.'));
        return twiml(
          phone.dialTwiml({
            id: callId.data,
            from: claimed.from,
            to: claimed.to,
            recording: claimed.recording,
          }),
        );
      },
    );

    /** What the called person hears on answering a recorded call before the agent is connected (decision 030). */
    typed.post(
      '/api/telephony/twilio/disclosure',
      { config: { access: 'public', csrf: false }, schema: { querystring: z.object({ callId: z.uuid() }) } },
      async (request, reply) => {
        const phone = ctx.telephony.browserPhone;
        if (!phone) throw new AppError('NOT_FOUND', 'Unknown provider');
        verifiedWebhookBody(ctx.telephony, ctx.publicUrl, request, 'twilio');
        const call = await withActor(ctx.db, { kind: 'system' }, (trx) =>
          findCallForRecording(trx, 'twilio', request.query.callId),
        );
        return reply
          .type('text/xml')
          .send(phone.disclosureTwiml(call?.recording_disclosure ?? RECORDING_DISCLOSURE));
      },
    );
  });
}
