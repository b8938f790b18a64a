import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MeResponseSchema, UpdateProfileSchema } from '#domain/profiles/profile.schema.ts';
import { withActor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { updateOwnProfile } from '../profiles/public.ts';
import { renameAuthUser } from './auth-accounts.repository.ts';

/**
 * Settings → Profile: the signed-in user changes their own name and time zone. Only those columns are
 * written, whatever the body holds; role and approval stay the administrator's. The password is changed through
 * the sign-in service (/api/auth/change-password), which asks for the current one and signs out other sessions.
 */
export function registerProfileRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.put(
    '/api/me',
    {
      config: { access: 'approved' },
      schema: { body: UpdateProfileSchema, response: { 200: MeResponseSchema } },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      const profile = await withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
        const saved = await updateOwnProfile(trx, userId, request.body);
        await renameAuthUser(trx, userId, `${saved.firstName} ${saved.lastName}`.trim(), ctx.clock());
        return saved;
      });
      return { profile };
    },
  );
}
