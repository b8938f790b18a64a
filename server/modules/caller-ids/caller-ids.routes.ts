import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CallerIdInputSchema, CallerIdSchema, LocalPresenceInputSchema } from '#domain/calls/call.schema.ts';
import { withActor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { addCheckedCallerId } from './caller-ids.service.ts';
import { deleteCallerId, makeDefaultCallerId } from './caller-ids.repository.ts';
import { setLocalPresence } from '../profiles/public.ts';

const approved = { config: { access: 'approved' as const } };
const IdParams = z.object({ id: z.uuid('Invalid id') });

/** Settings → Phone: the numbers a user's calls and texts go out from (listed with the calling setup). */
export function registerCallerIdRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/api/caller-ids',
    {
      ...approved,
      schema: { body: CallerIdInputSchema, response: { 201: z.object({ callerId: CallerIdSchema }) } },
    },
    async (request, reply) => {
      const callerId = await addCheckedCallerId(ctx, viewerOf(request).userId, request.body);
      return reply.status(201).send({ callerId });
    },
  );

  typed.post(
    '/api/caller-ids/:id/default',
    { ...approved, schema: { params: IdParams } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      await withActor(ctx.db, { kind: 'user', userId }, (trx) =>
        makeDefaultCallerId(trx, userId, request.params.id),
      );
      return reply.status(204).send();
    },
  );

  typed.delete(
    '/api/caller-ids/:id',
    { ...approved, schema: { params: IdParams } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      await withActor(ctx.db, { kind: 'user', userId }, (trx) =>
        deleteCallerId(trx, userId, request.params.id),
      );
      return reply.status(204).send();
    },
  );

  /** Local presence on or off (decision 027): calls from the caller ID nearest each contact, or always the default. */
  typed.put(
    '/api/caller-ids/local-presence',
    { ...approved, schema: { body: LocalPresenceInputSchema, response: { 200: LocalPresenceInputSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      await withActor(ctx.db, { kind: 'user', userId }, (trx) =>
        setLocalPresence(trx, userId, request.body.on),
      );
      return { on: request.body.on };
    },
  );
}
