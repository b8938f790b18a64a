import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MeResponseSchema, SessionStateSchema, type SessionState } from '#domain/profiles/profile.schema.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { resolveViewer, viewerOf } from '../../plugins/access-control.ts';

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

  /** The browser's route guard asks here: answers 200 whether or not anyone is signed in. */
  typed.get(
    '/api/session',
    { config: { access: 'public' }, schema: { response: { 200: SessionStateSchema } } },
    async (request, reply) => {
      try {
        const viewer = await resolveViewer(
          ctx,
          request,
          (cookies) => void reply.header('set-cookie', cookies),
        );
        return { profile: viewer.profile, reason: null };
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const reasons: Partial<Record<string, SessionState['reason']>> = {
          UNAUTHENTICATED: 'signed-out',
          ACCOUNT_DENIED: 'denied',
          ACCOUNT_DEACTIVATED: 'deactivated',
        };
        const reason = reasons[error.code];
        if (!reason) throw error;
        return { profile: null, reason };
      }
    },
  );

  /** The signed-in account, pending included (spec part 1 §2 route guard). */
  typed.get(
    '/api/me',
    { config: { access: 'session' }, schema: { response: { 200: MeResponseSchema } } },
    (request) => ({
      profile: viewerOf(request).profile,
    }),
  );
}
