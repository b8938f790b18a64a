import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CallingSetupSchema,
  CallResponseSchema,
  ContactCallingSchema,
  DayLogSchema,
  DayRangeQuerySchema,
  DispositionRecordSchema,
  DueCallbackSchema,
  PlaceCallInputSchema,
  SaveDispositionRequestSchema,
  VoiceTokenSchema,
} from '#domain/calls/call.schema.ts';
import { ContactIdParamsSchema } from '#domain/contacts/contact.schema.ts';
import { withActor, withActorRetryingDeadlocks } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { agentIdentity } from '../../telephony/telephony-provider.ts';
import { getContact } from '../contacts/public.ts';
import { optOutsOfContact } from '../consent/public.ts';
import { findCallerIds, findDefaultCallerId } from '../caller-ids/public.ts';
import { localPresenceOf } from '../profiles/public.ts';
import { getCall, resetUserCalls } from './calls.repository.ts';
import { findDueCallbacks } from './callbacks.repository.ts';
import { findContactCalling } from './dispositions.repository.ts';
import { hangUpCall, placeCall } from './calls.service.ts';
import { saveDisposition } from './dispositions.service.ts';
import { dropVoicemail } from './voicemail-drop.service.ts';
import { DropVoicemailRequestSchema } from '#domain/recordings/voicemail-drop.ts';
import { findDayLog } from './day-log.ts';
import { startBulkCall, stopBulkCall } from './bulk-calls.service.ts';
import { findBulkCall } from './bulk-calls.repository.ts';
import { BulkCallSummarySchema, StartBulkCallSchema } from '#domain/calls/bulk-call.schema.ts';

const approved = { config: { access: 'approved' as const } };
const IdParams = z.object({ id: z.uuid('Invalid id') });

/** Calling: click-to-call, hang up, the day's log, Reset Call System, dispositions, caller IDs, do-not-call. */
export function registerCallRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const asUser = <T>(userId: string, work: Parameters<typeof withActor<T>>[2]) =>
    withActor(ctx.db, { kind: 'user', userId }, work);

  typed.post(
    '/api/calls',
    { ...approved, schema: { body: PlaceCallInputSchema, response: { 201: CallResponseSchema } } },
    async (request, reply) => {
      const call = await placeCall(ctx, viewerOf(request).userId, request.body);
      return reply.status(201).send({ call });
    },
  );

  typed.get(
    '/api/calls/:id',
    { ...approved, schema: { params: IdParams, response: { 200: CallResponseSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      const call = await asUser(userId, (trx) => getCall(trx, userId, request.params.id));
      return { call };
    },
  );

  typed.post(
    '/api/calls/:id/hangup',
    { ...approved, schema: { params: IdParams } },
    async (request, reply) => {
      await hangUpCall(ctx, viewerOf(request).userId, request.params.id);
      return reply.status(204).send();
    },
  );

  /** Leaves one of the rep's recorded messages on an answered call and lets the rep go (decision 031). */
  typed.post(
    '/api/calls/:id/voicemail-drop',
    {
      ...approved,
      schema: { params: IdParams, body: DropVoicemailRequestSchema, response: { 200: CallResponseSchema } },
    },
    async (request) => ({
      call: await dropVoicemail(ctx, viewerOf(request).userId, request.params.id, request.body),
    }),
  );

  typed.post(
    '/api/calls/bulk',
    {
      ...approved,
      schema: { body: StartBulkCallSchema, response: { 201: z.object({ job: BulkCallSummarySchema }) } },
    },
    async (request, reply) => {
      const job = await startBulkCall(ctx, viewerOf(request).userId, request.body);
      return reply.status(201).send({ job });
    },
  );

  typed.get(
    '/api/calls/bulk/:id',
    {
      ...approved,
      schema: { params: IdParams, response: { 200: z.object({ job: BulkCallSummarySchema }) } },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      const job = await asUser(userId, (trx) => findBulkCall(trx, userId, request.params.id));
      if (!job) throw new AppError('NOT_FOUND', 'Bulk call not found');
      return { job };
    },
  );

  typed.post(
    '/api/calls/bulk/:id/cancel',
    { ...approved, schema: { params: IdParams } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      await asUser(userId, (trx) => stopBulkCall(trx, userId, request.params.id, ctx.clock()));
      return reply.status(204).send();
    },
  );

  /** Reset Call System: the user's lock released and unfinished calls closed. */
  typed.post(
    '/api/calls/reset',
    { ...approved, schema: { response: { 200: z.object({ closed: z.number().int() }) } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      return { closed: await asUser(userId, (trx) => resetUserCalls(trx, userId, ctx.clock())) };
    },
  );

  /** The browser phone's token (Twilio); the simulator's stand-in needs none (503, the spec's configuration error). */
  typed.get(
    '/api/calls/voice-token',
    { ...approved, schema: { response: { 200: VoiceTokenSchema } } },
    async (request) => {
      const phone = ctx.telephony.browserPhone;
      if (!phone)
        throw new AppError(
          'NOT_CONFIGURED',
          'Server configuration error: no voice provider credentials are configured (the built-in simulator needs no token).',
        );
      return phone.voiceToken(agentIdentity(viewerOf(request).userId));
    },
  );

  typed.get(
    '/api/calls/setup',
    { ...approved, schema: { response: { 200: CallingSetupSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      return asUser(userId, async (trx) => ({
        provider: ctx.telephony.name,
        callerIds: await findCallerIds(trx, userId),
        defaultFrom: (await findDefaultCallerId(trx, userId)) ?? ctx.defaultCallerId,
        localPresence: await localPresenceOf(trx, userId),
      }));
    },
  );

  /** The Call Logs Dashboard for one day of the browser's (decision 000 day boundaries). */
  typed.get(
    '/api/calls/day',
    { ...approved, schema: { querystring: DayRangeQuerySchema, response: { 200: DayLogSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      return asUser(userId, (trx) =>
        findDayLog(trx, userId, new Date(request.query.from), new Date(request.query.to)),
      );
    },
  );

  typed.get(
    '/api/calls/callbacks',
    { ...approved, schema: { response: { 200: z.object({ callbacks: z.array(DueCallbackSchema) }) } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      const rows = await asUser(userId, (trx) => findDueCallbacks(trx, userId, ctx.clock()));
      return {
        callbacks: rows.map((r) => ({
          dispositionId: r.id,
          contactId: r.contact_id ?? '',
          contactName: `${r.first_name} ${r.last_name}`.trim(),
          phone: r.phone,
          company: r.company,
          callbackDate: (r.callback_date ?? new Date(0)).toISOString(),
          notes: r.notes,
        })),
      };
    },
  );

  /** A contact's calls, dispositions, do-not-call state and SMS opt-out (a STOP reply), for its page. */
  typed.get(
    '/api/contacts/:id/calling',
    { ...approved, schema: { params: ContactIdParamsSchema, response: { 200: ContactCallingSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      return asUser(userId, async (trx) => {
        const contact = await getContact(trx, userId, request.params.id);
        const optOuts = await optOutsOfContact(trx, userId, contact.id);
        return {
          ...(await findContactCalling(trx, userId, contact.id)),
          doNotCall: Boolean(optOuts?.doNotCallSince),
          smsOptedOut: Boolean(optOuts?.textOptOutAt),
        };
      });
    },
  );

  typed.post(
    '/api/dispositions',
    {
      ...approved,
      schema: {
        body: SaveDispositionRequestSchema,
        response: { 201: z.object({ disposition: DispositionRecordSchema }) },
      },
    },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      // Statements only, so a deadlock with some other order of taking rows is simply tried again.
      const disposition = await withActorRetryingDeadlocks(ctx.db, { kind: 'user', userId }, (trx) =>
        saveDisposition(trx, userId, request.body, ctx.clock()),
      );
      return reply.status(201).send({ disposition });
    },
  );
}
