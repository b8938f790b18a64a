import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';

const HealthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['up', 'down']),
  /** Why the database is down for this instance, when it is. */
  reason: z.enum(['unreachable', 'pool-exhausted', 'login-refused']).optional(),
});
const SystemStatusSchema = z.object({ systemMailConfigured: z.boolean() });

export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  /**
   * Load balancers and operators: 200 while this instance can really serve (db/database-health.ts), 503 with the
   * reason otherwise, answered within a few seconds even when every database connection is held.
   */
  typed.get(
    '/api/health',
    { config: { access: 'public' }, schema: { response: { 200: HealthSchema, 503: HealthSchema } } },
    async (request, reply) => {
      const health = await ctx.databaseHealth();
      if (health.ok) return { status: 'ok' as const, database: 'up' as const };
      request.log.error({ reason: health.reason }, 'health check: database unavailable');
      return reply.status(503).send({ status: 'unavailable', database: 'down', reason: health.reason });
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
