import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AccountsPageSchema,
  AdminStatsSchema,
  ChangeRoleInputSchema,
  DiagnosticsSchema,
  ListAccountsQuerySchema,
  PendingUsersResponseSchema,
  ResetLinkResponseSchema,
  SystemOutboxSchema,
  UserIdParamsSchema,
} from '#domain/admin/admin.schema.ts';
import { ProfileSchema } from '#domain/profiles/profile.schema.ts';
import { backgroundJobsRunning, ServerInstancesSchema } from '#domain/admin/server-instances.ts';
import { AppError } from '../../errors/app-error.ts';
import { withActor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { resetLinkCapture } from '../auth/public.ts';
import { findAccounts, findPendingProfiles, findSystemOutbox, getAdminStats } from './admin.repository.ts';
import { findProfile } from '../profiles/public.ts';
import { applyAdminAction, type AdminAction } from './admin.service.ts';
import { readDiagnostics } from './diagnostics.repository.ts';
import { listInstances } from '../../instance/instances.repository.ts';

const ProfileResponse = z.object({ profile: ProfileSchema });

/** Admin user management (/admin) and what an administrator of a team needs beyond it. */
export function registerAdminRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const admin = { config: { access: 'admin' as const } };
  const asAdmin = <T>(adminId: string, work: Parameters<typeof withActor<T>>[2]) =>
    withActor(ctx.db, { kind: 'admin', userId: adminId }, work);

  typed.get('/api/admin/stats', { ...admin, schema: { response: { 200: AdminStatsSchema } } }, (request) =>
    asAdmin(viewerOf(request).userId, (trx) => getAdminStats(trx)),
  );

  typed.get(
    '/api/admin/pending',
    { ...admin, schema: { response: { 200: PendingUsersResponseSchema } } },
    async (request) => ({
      users: await asAdmin(viewerOf(request).userId, (trx) => findPendingProfiles(trx)),
    }),
  );

  typed.get(
    '/api/admin/users',
    { ...admin, schema: { querystring: ListAccountsQuerySchema, response: { 200: AccountsPageSchema } } },
    (request) => asAdmin(viewerOf(request).userId, (trx) => findAccounts(trx, request.query)),
  );

  const actions: Record<string, AdminAction> = {
    approve: 'approve',
    deny: 'deny',
    deactivate: 'deactivate',
    reactivate: 'reactivate',
  };
  for (const [path, action] of Object.entries(actions)) {
    typed.post(
      `/api/admin/users/:userId/${path}`,
      { ...admin, schema: { params: UserIdParamsSchema, response: { 200: ProfileResponse } } },
      async (request) => ({
        profile: await applyAdminAction(ctx, viewerOf(request).userId, request.params.userId, action),
      }),
    );
  }

  typed.put(
    '/api/admin/users/:userId/role',
    {
      ...admin,
      schema: { params: UserIdParamsSchema, body: ChangeRoleInputSchema, response: { 200: ProfileResponse } },
    },
    async (request) => ({
      profile: await applyAdminAction(
        ctx,
        viewerOf(request).userId,
        request.params.userId,
        request.body.role === 'admin' ? 'make-admin' : 'make-user',
      ),
    }),
  );

  /** A one-time password-reset link the admin hands over; works whether or not system mail is configured. */
  typed.post(
    '/api/admin/users/:userId/reset-link',
    { ...admin, schema: { params: UserIdParamsSchema, response: { 200: ResetLinkResponseSchema } } },
    async (request) => {
      const target = await asAdmin(viewerOf(request).userId, (trx) =>
        findProfile(trx, request.params.userId),
      );
      if (!target) throw new AppError('NOT_FOUND', 'User not found.');
      const capture = { token: null as string | null };
      await resetLinkCapture.run(capture, () =>
        ctx.auth.api.requestPasswordReset({ body: { email: target.email } }),
      );
      if (!capture.token) throw new AppError('INTERNAL', 'Could not create a reset link.');
      const expiresAt = new Date(ctx.clock().getTime() + 60 * 60 * 1000).toISOString();
      return { url: `${ctx.publicUrl}/reset-password?token=${encodeURIComponent(capture.token)}`, expiresAt };
    },
  );

  typed.get(
    '/api/admin/diagnostics',
    { ...admin, schema: { response: { 200: DiagnosticsSchema } } },
    (request) => asAdmin(viewerOf(request).userId, (trx) => readDiagnostics(trx, ctx.clock())),
  );

  typed.get(
    '/api/admin/instances',
    { ...admin, schema: { response: { 200: ServerInstancesSchema } } },
    async (request) => {
      const instances = await asAdmin(viewerOf(request).userId, (trx) => listInstances(trx));
      return { instances, backgroundJobsRunning: backgroundJobsRunning(instances) };
    },
  );

  typed.get(
    '/api/admin/outbox',
    { ...admin, schema: { response: { 200: SystemOutboxSchema } } },
    async (request) => {
      const rows = await asAdmin(viewerOf(request).userId, (trx) => findSystemOutbox(trx, 200));
      return {
        messages: rows.map((r) => ({
          id: r.id,
          kind: r.kind,
          to: r.to_address,
          subject: r.subject,
          text: r.text_body,
          createdAt: r.created_at.toISOString(),
        })),
      };
    },
  );
}
