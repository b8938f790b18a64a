import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';

const HealthSchema = z.object({ status: z.enum(['ok', 'unavailable']), database: z.enum(['up', 'down']) });
const SystemStatusSchema = z.object({ systemMailConfigured: z.boolean() });

export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  /** Load balancers and operators: 200 when the database answers, 503 otherwise. */
  typed.get(
    '/api/health',
    { config: { access: 'public' }, schema: { response: { 200: HealthSchema, 503: HealthSchema } } },
    async (request, reply) => {
      try {
        await sql`select 1`.execute(ctx.db);
        return { status: 'ok' as const, database: 'up' as const };
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unreachable');
        return reply.status(503).send({ status: 'unavailable', database: 'down' });
      }
    },
  );

  /** What the sign-in screen needs to know about this instance. */
  typed.get(
    '/api/system/status',
    { config: { access: 'public' }, schema: { response: { 200: SystemStatusSchema } } },
    () => ({
      systemMailConfigured: ctx.mailer.isConfigured,
    }),
  );
}
