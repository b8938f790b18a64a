import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EmailTemplateInputSchema, EmailTemplateSchema } from '#domain/email/email.schema.ts';
import { withActor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { deleteTemplate, findTemplates, saveTemplate } from './email-templates.repository.ts';

const approved = { config: { access: 'approved' as const } };
const IdParams = z.object({ id: z.uuid('Invalid template id') });
const TemplateResponse = z.object({ template: EmailTemplateSchema });

/** Settings → Email, templates: each user's own, with at most one default. */
export function registerEmailTemplateRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const asUser = <T>(userId: string, work: Parameters<typeof withActor<T>>[2]) =>
    withActor(ctx.db, { kind: 'user', userId }, work);

  typed.get(
    '/api/email/templates',
    { ...approved, schema: { response: { 200: z.object({ templates: z.array(EmailTemplateSchema) }) } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      return { templates: await asUser(userId, (trx) => findTemplates(trx, userId)) };
    },
  );

  typed.post(
    '/api/email/templates',
    { ...approved, schema: { body: EmailTemplateInputSchema, response: { 201: TemplateResponse } } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      const template = await asUser(userId, (trx) =>
        saveTemplate(trx, userId, undefined, request.body, ctx.clock()),
      );
      return reply.status(201).send({ template });
    },
  );

  typed.put(
    '/api/email/templates/:id',
    {
      ...approved,
      schema: { params: IdParams, body: EmailTemplateInputSchema, response: { 200: TemplateResponse } },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      return {
        template: await asUser(userId, (trx) =>
          saveTemplate(trx, userId, request.params.id, request.body, ctx.clock()),
        ),
      };
    },
  );

  typed.delete(
    '/api/email/templates/:id',
    { ...approved, schema: { params: IdParams } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      await asUser(userId, (trx) => deleteTemplate(trx, userId, request.params.id));
      return reply.status(204).send();
    },
  );
}
