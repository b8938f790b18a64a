import { optOutsOfContact } from '../consent/public.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ContactIdParamsSchema } from '#domain/contacts/contact.schema.ts';
import {
  ContactEmailsSchema,
  OutboxPageSchema,
  SendEmailInputSchema,
  SendEmailResultSchema,
} from '#domain/email/email.schema.ts';
import { withActor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { getContact } from '../contacts/public.ts';
import { findContactEmails, findOutbox } from './contact-email.repository.ts';
import { sendEmailToContact } from './contact-email.service.ts';

const approved = { config: { access: 'approved' as const } };
const OutboxQuery = z.object({
  beforeSentAt: z.iso.datetime({ offset: true }).optional(),
  beforeId: z.uuid().optional(),
});

/** E-mails to contacts: send (Send Email), the contact's history of them, and the outbox. */
export function registerContactEmailRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const asUser = <T>(userId: string, work: Parameters<typeof withActor<T>>[2]) =>
    withActor(ctx.db, { kind: 'user', userId }, work);

  typed.post(
    '/api/contacts/:id/emails',
    {
      ...approved,
      schema: {
        params: ContactIdParamsSchema,
        body: SendEmailInputSchema,
        response: { 201: SendEmailResultSchema },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const email = await asUser(viewer.userId, (trx) =>
        sendEmailToContact(ctx, trx, {
          userId: viewer.userId,
          accountEmail: viewer.profile.email,
          contactId: request.params.id,
          subject: request.body.subject,
          content: request.body.content,
          templateId: request.body.templateId ?? null,
        }),
      );
      return reply.status(201).send({ email });
    },
  );

  typed.get(
    '/api/contacts/:id/emails',
    {
      ...approved,
      schema: {
        params: ContactIdParamsSchema,
        response: { 200: ContactEmailsSchema },
      },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      return asUser(userId, async (trx) => {
        const contact = await getContact(trx, userId, request.params.id);
        const unsubscribed = (await optOutsOfContact(trx, userId, contact.id))?.unsubscribedAt;
        return {
          emails: await findContactEmails(trx, userId, request.params.id),
          unsubscribedAt: unsubscribed?.toISOString() ?? null,
        };
      });
    },
  );

  typed.get(
    '/api/email/outbox',
    { ...approved, schema: { querystring: OutboxQuery, response: { 200: OutboxPageSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      const { beforeSentAt, beforeId } = request.query;
      const before = beforeSentAt && beforeId ? { sentAt: new Date(beforeSentAt), id: beforeId } : undefined;
      return asUser(userId, (trx) => findOutbox(trx, userId, before));
    },
  );
}
