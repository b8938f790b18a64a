import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TelephonyProviderNameSchema } from '#domain/calls/call-status.ts';
import {
  INCOMING_MESSAGES,
  INCOMING_RING_SECONDS,
  IncomingCallsResponseSchema,
  MISSED_TO_RETURN_DAYS,
  MissedCallsToReturnSchema,
  SimulateIncomingCallSchema,
} from '#domain/calls/incoming-call.ts';
import { normalizePhone } from '#domain/contacts/phone.ts';
import { withActor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { registerProviderWebhooks, verifiedWebhookBody } from '../../telephony/provider-webhook.ts';
import { findCallerIds } from '../caller-ids/public.ts';
import {
  clearMissedCalls,
  findMissedCallsToReturn,
  ringingIncomingCalls,
} from './incoming-calls.repository.ts';
import { recordingUrl } from '../recordings/public.ts';
import {
  answerIncomingCall,
  declineIncomingCall,
  incomingCallProgress,
  receiveIncomingCall,
} from './incoming-calls.service.ts';
import { voicemailLeft } from './voicemail.service.ts';
import { recordingReady } from './recording-fetch.task.ts';

const approved = { config: { access: 'approved' as const } };
const IdParams = z.object({ id: z.uuid('Invalid id') });
const ProviderParams = z.object({ provider: TelephonyProviderNameSchema });
/** Our call id, set in the callback URL when the call was answered (signed with the URL). */
const CallIdQuery = z.object({ callId: z.uuid() });

/**
 * Calls coming in (decision 028). Two provider webhooks, public and signed like the status webhook: the number's
 * voice webhook (a call arrives: ring the user's browser phones, or say the number is not in service) and the
 * incoming-status webhook (the ringing answered, ended, or over with nobody answering). For the user: the calls
 * ringing now with their screen-pop, Answer (the simulator's; Twilio's browser phone answers the provider
 * itself), and the simulator's 'Simulate incoming call'.
 */
export function registerIncomingCallRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerProviderWebhooks(app, (scope) => {
    const typed = scope.withTypeProvider<ZodTypeProvider>();
    typed.post(
      '/api/telephony/:provider/incoming',
      { config: { access: 'public', csrf: false }, schema: { params: ProviderParams } },
      async (request, reply) => {
        const body = verifiedWebhookBody(ctx.telephony, ctx.publicUrl, request, request.params.provider);
        const event = ctx.telephony.incoming.parse(body);
        const answer = event
          ? await receiveIncomingCall(ctx, event)
          : ctx.telephony.incoming.sayReply(INCOMING_MESSAGES.notInService);
        return reply.type(answer.contentType).send(answer.body);
      },
    );
    typed.post(
      '/api/telephony/:provider/incoming-status',
      {
        config: { access: 'public', csrf: false },
        // Our call id, set in the callback URL when the call was answered with ringing (signed with the URL).
        schema: { params: ProviderParams, querystring: CallIdQuery },
      },
      async (request, reply) => {
        const body = verifiedWebhookBody(ctx.telephony, ctx.publicUrl, request, request.params.provider);
        const answer = await incomingCallProgress(ctx, request.query.callId, body);
        return reply.type(answer.contentType).send(answer.body);
      },
    );
    // The caller finished their voicemail (Twilio's Record action): they hear the thanks.
    typed.post(
      '/api/telephony/:provider/voicemail',
      {
        config: { access: 'public', csrf: false },
        schema: { params: ProviderParams, querystring: CallIdQuery },
      },
      async (request, reply) => {
        verifiedWebhookBody(ctx.telephony, ctx.publicUrl, request, request.params.provider);
        const answer = voicemailLeft(ctx);
        return reply.type(answer.contentType).send(answer.body);
      },
    );
    // The voicemail's recording is ready (Twilio's recordingStatusCallback): it is fetched and stored by a job.
    typed.post(
      '/api/telephony/:provider/voicemail-recording',
      {
        config: { access: 'public', csrf: false },
        schema: { params: ProviderParams, querystring: CallIdQuery },
      },
      async (request, reply) => {
        const body = verifiedWebhookBody(ctx.telephony, ctx.publicUrl, request, request.params.provider);
        await recordingReady(ctx, 'voicemail', request.query.callId, body);
        return reply.status(204).send();
      },
    );
    // A recorded call's recording is ready (decision 030): fetched and stored by a job, like a voicemail.
    typed.post(
      '/api/telephony/:provider/call-recording',
      {
        config: { access: 'public', csrf: false },
        schema: { params: ProviderParams, querystring: CallIdQuery },
      },
      async (request, reply) => {
        const body = verifiedWebhookBody(ctx.telephony, ctx.publicUrl, request, request.params.provider);
        await recordingReady(ctx, 'call', request.query.callId, body);
        return reply.status(204).send();
      },
    );
  });

  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    '/api/calls/incoming',
    { ...approved, schema: { response: { 200: IncomingCallsResponseSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      const calls = await withActor(ctx.db, { kind: 'user', userId }, (trx) =>
        ringingIncomingCalls(trx, userId, ctx.clock(), INCOMING_RING_SECONDS),
      );
      return { calls };
    },
  );

  /** The missed calls to return: the power dialer's list, one line per number, until called back or marked done. */
  typed.get(
    '/api/calls/missed',
    { ...approved, schema: { response: { 200: MissedCallsToReturnSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      const since = new Date(ctx.clock().getTime() - MISSED_TO_RETURN_DAYS * 86_400_000);
      const rows = await withActor(ctx.db, { kind: 'user', userId }, (trx) =>
        findMissedCallsToReturn(trx, userId, since),
      );
      return {
        missed: rows.map((r) => ({
          callId: r.id,
          from: r.from_number,
          at: r.started_at.toISOString(),
          missed: Number(r.missed),
          contact: r.contact_id
            ? {
                id: r.contact_id,
                name: `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim(),
                company: r.company,
              }
            : null,
          voicemail:
            r.voicemail_id && r.voicemail_at
              ? {
                  id: r.voicemail_id,
                  durationSeconds: Number(r.voicemail_seconds),
                  url: recordingUrl(r.voicemail_id),
                  createdAt: r.voicemail_at.toISOString(),
                }
              : null,
        })),
      };
    },
  );

  typed.post(
    '/api/calls/:id/missed/done',
    { ...approved, schema: { params: IdParams } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      const cleared = await withActor(ctx.db, { kind: 'user', userId }, (trx) =>
        clearMissedCalls(trx, userId, request.params.id, ctx.clock()),
      );
      if (!cleared) throw new AppError('NOT_FOUND', INCOMING_MESSAGES.missedNotFound);
      return reply.status(204).send();
    },
  );

  typed.post(
    '/api/calls/:id/answer',
    { ...approved, schema: { params: IdParams } },
    async (request, reply) => {
      await answerIncomingCall(ctx, viewerOf(request).userId, request.params.id);
      return reply.status(204).send();
    },
  );

  typed.post(
    '/api/calls/:id/decline',
    { ...approved, schema: { params: IdParams } },
    async (request, reply) => {
      await declineIncomingCall(ctx, viewerOf(request).userId, request.params.id);
      return reply.status(204).send();
    },
  );

  typed.post(
    '/api/calls/simulate-incoming',
    { ...approved, schema: { body: SimulateIncomingCallSchema } },
    async (request, reply) => {
      const simulate = ctx.telephony.incoming.simulate;
      if (!simulate) throw new AppError('NOT_FOUND', INCOMING_MESSAGES.simulatorOnly);
      const userId = viewerOf(request).userId;
      const from = normalizePhone(request.body.from);
      if (!from) throw new AppError('VALIDATION_FAILED', 'Enter a full phone number');
      const numbers = await withActor(ctx.db, { kind: 'user', userId }, (trx) => findCallerIds(trx, userId));
      const asked = request.body.to ? normalizePhone(request.body.to) : null;
      if (request.body.to && !numbers.some((n) => n.numberE164 === asked))
        throw new AppError('VALIDATION_FAILED', INCOMING_MESSAGES.notYourNumber);
      const to = asked ?? numbers[0]?.numberE164 ?? ctx.defaultCallerId;
      if (!to) throw new AppError('CONFLICT', INCOMING_MESSAGES.noNumber);
      await simulate({ from, to, userId, voicemailSeconds: request.body.voicemailSeconds });
      return reply.status(202).send();
    },
  );
}
