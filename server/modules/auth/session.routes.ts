import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MeResponseSchema, SessionStateSchema, type SessionState } from '#domain/profiles/profile.schema.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { resolveViewer } from './viewer.ts';

/** Who is signed in: the route guard's question. */
export function registerSessionRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

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

  /** The signed-in account, pending included (route guard). */
  typed.get(
    '/api/me',
    { config: { access: 'session' }, schema: { response: { 200: MeResponseSchema } } },
    (request) => ({
      profile: viewerOf(request).profile,
    }),
  );
}
