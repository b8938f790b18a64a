import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { WebhookEventType } from '#domain/webhooks/webhook-delivery.ts';
import {
  MAX_WEBHOOK_ENDPOINTS,
  WebhookDeliveryPageSchema,
  WebhookEndpointInputSchema,
  WebhookEndpointListSchema,
  WebhookEndpointPatchSchema,
  WebhookEndpointResponseSchema,
  WebhookSecretSchema,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '#domain/webhooks/webhook-endpoint.schema.ts';
import { withActor } from '../../db/database.ts';
import { AppError, notFound } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { destinationProblem } from '../../http/outgoing-post.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { queueEndpointDelivery } from './webhook-deliver.task.ts';
import { newWebhookSecret } from './webhook-signature.ts';
import {
  countEndpoints,
  deleteEndpoint,
  findEndpoint,
  insertEndpoint,
  listDeliveries,
  listEndpoints,
  lockEndpointsOf,
  redeliver,
  updateEndpoint,
} from './webhooks.repository.ts';

const approved = { config: { access: 'approved' as const } };
const IdParams = z.object({ id: z.uuid() });

type EndpointRow = Awaited<ReturnType<typeof listEndpoints>>[number];
const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events as WebhookEventType[],
  enabled: row.enabled,
  disabledReason: row.disabled_reason,
  failingSince: row.failing_since?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
});

type DeliveryRow = Awaited<ReturnType<typeof listDeliveries>>[number];
const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  type: row.type,
  status: row.status,
  attempts: row.attempts,
  eventAt: row.event_at.toISOString(),
  lastStatus: row.last_status,
  lastError: row.last_error,
  lastAttemptAt: row.last_attempt_at?.toISOString() ?? null,
  deliveredAt: row.delivered_at?.toISOString() ?? null,
  nextAttemptAt: row.status === 'pending' ? row.due_at.toISOString() : null,
});

/**
 * Outgoing webhooks (decision 035): a user's endpoints (address, events, signing secret, on or off), each one's
 * delivery log, and redelivery. Capture and delivery run in the database's triggers and the job queue
 * (`webhook-deliver.task.ts`); these routes never wait for an endpoint.
 */
export function registerWebhookRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const asUser = <T>(userId: string, work: Parameters<typeof withActor<T>>[2]) =>
    withActor(ctx.db, { kind: 'user', userId }, work);
  const checkUrl = (url: string) => {
    const problem = destinationProblem(url, ctx.webhookAllowedHosts);
    if (problem)
      throw new AppError('VALIDATION_FAILED', 'Some fields are invalid.', {
        issues: [{ path: 'url', message: problem }],
      });
  };

  typed.get(
    '/api/webhooks',
    { ...approved, schema: { response: { 200: WebhookEndpointListSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      return { endpoints: (await asUser(userId, (trx) => listEndpoints(trx, userId))).map(toEndpoint) };
    },
  );

  typed.post(
    '/api/webhooks',
    {
      ...approved,
      schema: {
        body: WebhookEndpointInputSchema,
        response: { 201: WebhookEndpointResponseSchema.extend(WebhookSecretSchema.shape) },
      },
    },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      checkUrl(request.body.url);
      const secret = newWebhookSecret();
      const row = await asUser(userId, async (trx) => {
        await lockEndpointsOf(trx, userId);
        if ((await countEndpoints(trx, userId)) >= MAX_WEBHOOK_ENDPOINTS)
          throw new AppError(
            'CONFLICT',
            `You have ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints, the most allowed: delete one first.`,
          );
        return insertEndpoint(
          trx,
          {
            userId,
            url: request.body.url,
            description: request.body.description,
            events: [...new Set(request.body.events)],
            secretSealed: ctx.secretBox.seal(secret),
          },
          ctx.clock(),
        );
      });
      return reply.status(201).send({ endpoint: toEndpoint(row), secret });
    },
  );

  typed.get(
    '/api/webhooks/:id/secret',
    { ...approved, schema: { params: IdParams, response: { 200: WebhookSecretSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      const row = await asUser(userId, (trx) => findEndpoint(trx, userId, request.params.id));
      if (!row) throw notFound('No such webhook endpoint.');
      return { secret: ctx.secretBox.open(row.secret_sealed) };
    },
  );

  typed.patch(
    '/api/webhooks/:id',
    {
      ...approved,
      schema: {
        params: IdParams,
        body: WebhookEndpointPatchSchema,
        response: { 200: WebhookEndpointResponseSchema },
      },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      if (request.body.url !== undefined) checkUrl(request.body.url);
      const { events, ...rest } = request.body;
      const row = await asUser(userId, (trx) =>
        updateEndpoint(trx, userId, request.params.id, {
          ...rest,
          ...(events && { events: [...new Set(events)] }),
        }),
      );
      if (!row) throw notFound('No such webhook endpoint.');
      // Back on: what waited while it was off goes now.
      if (request.body.enabled === true) await queueEndpointDelivery(ctx, row.id);
      return { endpoint: toEndpoint(row) };
    },
  );

  typed.delete('/api/webhooks/:id', { ...approved, schema: { params: IdParams } }, async (request, reply) => {
    const userId = viewerOf(request).userId;
    const deleted = await asUser(userId, (trx) => deleteEndpoint(trx, userId, request.params.id));
    if (!deleted) throw notFound('No such webhook endpoint.');
    return reply.status(204).send();
  });

  typed.get(
    '/api/webhooks/:id/deliveries',
    {
      ...approved,
      schema: {
        params: IdParams,
        querystring: z.object({
          before: z
            .string()
            .regex(/^\d{1,19}$/)
            .optional(),
          limit: z.coerce.number().int().min(1).max(100).default(50),
        }),
        response: { 200: WebhookDeliveryPageSchema },
      },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      const { before, limit } = request.query;
      const rows = await asUser(userId, async (trx) => {
        if (!(await findEndpoint(trx, userId, request.params.id)))
          throw notFound('No such webhook endpoint.');
        return listDeliveries(trx, userId, request.params.id, { before, limit });
      });
      const page = rows.slice(0, limit);
      return { deliveries: page.map(toDelivery), next: rows.length > limit ? page.at(-1)!.sequence : null };
    },
  );

  typed.post(
    '/api/webhook-deliveries/:id/redeliver',
    {
      ...approved,
      schema: { params: z.object({ id: z.string().regex(/^msg_[0-9a-f]{32}$/, 'No such delivery.') }) },
    },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      const row = await asUser(userId, (trx) => redeliver(trx, userId, request.params.id, ctx.clock()));
      if (!row) throw notFound('No such delivery, or it is still being delivered.');
      await queueEndpointDelivery(ctx, row.endpoint_id);
      return reply.status(202).send();
    },
  );
}
