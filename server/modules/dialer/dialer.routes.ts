import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DialerContactInputSchema,
  DialerContactResultSchema,
  dialerContactProblem,
} from '#domain/dialer/dialer-contact.ts';
import { withActor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { enrollContact } from '../campaigns/public.ts';
import { createContact } from '../contacts/public.ts';
import { findTemplate, sendEmailToContact } from '../email/public.ts';
import { addQueueMembers, lockQueueIfAny } from '../queues/public.ts';

const approved = { config: { access: 'approved' as const } };

/**
 * The browser dialer's Add New Contact: a phone-only or e-mail-only contact is allowed
 * (decision 000 "Contacts without an e-mail"); it is stored synced and joins the default queue like any other, and the queue the dialer walks.
 * With send-e-mail on, the chosen template goes out (or to the outbox) in the same transaction: if the mail server
 * refuses, nothing is saved and the answer says why, so the user can fix it and try again. Or, with a sequence
 * chosen instead, the contact is enrolled in it in the same transaction (a canceled sequence refuses, and nothing
 * is saved).
 */
export function registerDialerRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/api/dialer/contacts',
    {
      ...approved,
      schema: { body: DialerContactInputSchema, response: { 201: DialerContactResultSchema } },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const input = request.body;
      const problem = dialerContactProblem(input);
      if (problem)
        throw new AppError('VALIDATION_FAILED', `${problem.title}: ${problem.description}`, {
          issues: [{ path: problem.field, message: problem.description }],
        });
      const result = await withActor(ctx.db, { kind: 'user', userId: viewer.userId }, async (trx) => {
        const template =
          input.sendEmail && input.templateId
            ? await findTemplate(trx, viewer.userId, input.templateId)
            : null;
        if (input.sendEmail && input.templateId && !template)
          throw new AppError('NOT_FOUND', 'Template not found');
        const contact = await createContact(
          ctx,
          trx,
          viewer.userId,
          {
            firstName: input.firstName,
            lastName: input.lastName,
            email: input.email,
            phone: input.phone || null,
            company: input.company || null,
            website: null,
            title: null,
            notes: null,
            status: 'new',
            tags: [],
          },
          ctx.clock(),
        );
        // Added while walking a queue: the contact joins it (a queue deleted meanwhile is let go).
        const queue = input.queueId ? await lockQueueIfAny(trx, viewer.userId, input.queueId) : undefined;
        if (queue) await addQueueMembers(trx, viewer.userId, queue.id, [contact.id]);
        const email = template
          ? await sendEmailToContact(ctx, trx, {
              userId: viewer.userId,
              accountEmail: viewer.profile.email,
              contactId: contact.id,
              subject: template.subject,
              content: template.content,
              templateId: template.id,
            })
          : null;
        // The sequence choice: the contact joins it (its first e-mail goes out when its delay has passed).
        const sequence =
          input.sendEmail && input.sequenceId
            ? (await enrollContact(trx, viewer.userId, input.sequenceId, contact.id, ctx.clock())).sequence
            : null;
        return { contact, email, sequence: sequence && { id: sequence.id, name: sequence.name } };
      });
      return reply.status(201).send(result);
    },
  );
}
