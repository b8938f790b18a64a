import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ConsentSettingsSchema,
  ContactConsentSchema,
  ExpressConsentInputSchema,
  ExpressConsentSchema,
  type ReachAnswer,
} from '#domain/consent/consent.schema.ts';
import {
  decideReach,
  localTimeLine,
  type ReachChannel,
  type ReachDecision,
} from '#domain/consent/reach-decision.ts';
import {
  ConsentRecordSchema,
  consentRecordCsv,
  consentRecordFileName,
} from '#domain/consent/consent-record.ts';
import { ContactIdParamsSchema } from '#domain/contacts/contact.schema.ts';
import { withActor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { consentRecordOf, factsForContacts, reachSettingsOf, takeOffDoNotCall } from './consent.service.ts';
import { giveExpressConsent, withdrawConsent } from './express-consent.service.ts';
import { findContactReachRows, findConsentSettings, saveConsentSettings } from './reach-facts.repository.ts';

const approved = { config: { access: 'approved' as const } };
/** The contact page shows this many entries of the record; the export has them all (up to the larger figure). */
const SHOWN_ENTRIES = 50;
const EXPORTED_ENTRIES = 100_000;

const answerOf = (decision: ReachDecision): ReachAnswer =>
  decision.allowed
    ? { allowed: true, code: null, reason: decision.note, retryAt: null }
    : {
        allowed: false,
        code: decision.code,
        reason: decision.reason,
        retryAt: decision.retryAt?.toISOString() ?? null,
      };

/** The consent gate's screens: a contact's local time and what may reach them now; the user's calling hours. */
export function registerConsentRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const asUser = <T>(userId: string, work: Parameters<typeof withActor<T>>[2]) =>
    withActor(ctx.db, { kind: 'user', userId }, work);

  typed.get(
    '/api/contacts/:id/consent',
    { ...approved, schema: { params: ContactIdParamsSchema, response: { 200: ContactConsentSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      const now = ctx.clock();
      return asUser(userId, async (trx) => {
        const settings = await reachSettingsOf(trx, userId);
        const facts = (
          await factsForContacts(trx, userId, [request.params.id], now, { calls: true, validity: true })
        ).get(request.params.id);
        if (!facts) throw new AppError('NOT_FOUND', 'Contact not found');
        const answer = (channel: ReachChannel) => answerOf(decideReach(channel, facts, settings, now));
        return {
          zones: facts.zones,
          zoneSource: facts.zoneSource,
          state: facts.state,
          phoneValid: facts.phoneValid ?? false,
          localTime: facts.zones ? `Local time ${localTimeLine(facts.zones, now)}` : null,
          expressConsent: facts.standingConsent,
          call: answer('call'),
          text: answer('text'),
          campaignEmail: answer('campaign-email'),
          prerecorded: answer('prerecorded'),
        };
      });
    },
  );

  /** The contact's consent record: the opt-outs standing now and the newest decisions, for their page. */
  typed.get(
    '/api/contacts/:id/consent/record',
    { ...approved, schema: { params: ContactIdParamsSchema, response: { 200: ConsentRecordSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      const record = await asUser(userId, (trx) =>
        consentRecordOf(trx, userId, request.params.id, SHOWN_ENTRIES),
      );
      if (!record) throw new AppError('NOT_FOUND', 'Contact not found');
      return { standing: record.standing, entries: record.entries };
    },
  );

  /** Export consent record: one contact's whole history as CSV. */
  typed.get(
    '/api/contacts/:id/consent/record.csv',
    { ...approved, schema: { params: ContactIdParamsSchema } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      const record = await asUser(userId, (trx) =>
        consentRecordOf(trx, userId, request.params.id, EXPORTED_ENTRIES),
      );
      if (!record) throw new AppError('NOT_FOUND', 'Contact not found');
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="${consentRecordFileName(record.name, ctx.clock())}"`,
        )
        .header('cache-control', 'no-store')
        .send(consentRecordCsv(record));
    },
  );

  /** "Record express consent" on the contact page: the day the contact agreed to calls and texts, and where. */
  typed.post(
    '/api/contacts/:id/consent/express',
    {
      ...approved,
      schema: {
        params: ContactIdParamsSchema,
        body: ExpressConsentInputSchema,
        response: { 201: ExpressConsentSchema },
      },
    },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      const now = ctx.clock();
      await asUser(userId, (trx) => giveExpressConsent(trx, userId, request.params.id, request.body, now));
      return reply.status(201).send({ ...request.body, recordedAt: now.toISOString() });
    },
  );

  /** "Withdraw consent", behind a confirmation: the consent stops counting, and stays in the record. */
  typed.delete(
    '/api/contacts/:id/consent/express',
    { ...approved, schema: { params: ContactIdParamsSchema } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      await asUser(userId, (trx) => withdrawConsent(trx, userId, request.params.id, ctx.clock()));
      return reply.status(204).send();
    },
  );

  /** "Remove from do-not-call" on the contact page, behind a confirmation. */
  typed.delete(
    '/api/contacts/:id/do-not-call',
    { ...approved, schema: { params: ContactIdParamsSchema } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      await asUser(userId, async (trx) => {
        const [row] = await findContactReachRows(trx, userId, [request.params.id]);
        const contact = row?.phone_e164 ? { id: row.id, e164: row.phone_e164 } : null;
        if (!contact || !(await takeOffDoNotCall(trx, userId, contact, ctx.clock())))
          throw new AppError('NOT_FOUND', 'This number is not on your do-not-call list');
      });
      return reply.status(204).send();
    },
  );

  typed.get(
    '/api/consent/settings',
    { ...approved, schema: { response: { 200: ConsentSettingsSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      const settings = await asUser(userId, (trx) => findConsentSettings(trx, userId));
      return { window: settings.window, unknownLocalTime: settings.unknownLocalTime };
    },
  );

  typed.put(
    '/api/consent/settings',
    { ...approved, schema: { body: ConsentSettingsSchema, response: { 200: ConsentSettingsSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      await asUser(userId, (trx) => saveConsentSettings(trx, userId, request.body));
      return request.body;
    },
  );
}
