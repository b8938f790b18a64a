import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  MarkReadSchema,
  NotificationSettingsResponseSchema,
  NotificationSettingsChangeSchema,
  NotificationsPageSchema,
  NotificationsQuerySchema,
} from '#domain/notifications/notification.schema.ts';
import { withActor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import {
  findNotifications,
  findNotificationSettings,
  markNotificationsRead,
  saveNotificationSettings,
} from './notifications.repository.ts';

const approved = { config: { access: 'approved' as const } };

/**
 * Notifications: the bell's list and unread count, marking read, and Settings → Notifications. A user
 * reaches only their own, through row security as well as the queries.
 */
export function registerNotificationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const asUser = <T>(userId: string, work: Parameters<typeof withActor<T>>[2]) =>
    withActor(ctx.db, { kind: 'user', userId }, work);

  typed.get(
    '/api/notifications',
    {
      ...approved,
      schema: { querystring: NotificationsQuerySchema, response: { 200: NotificationsPageSchema } },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      return asUser(userId, (trx) => findNotifications(trx, userId, request.query));
    },
  );

  typed.post(
    '/api/notifications/read',
    { ...approved, schema: { body: MarkReadSchema } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      await asUser(userId, (trx) => markNotificationsRead(trx, userId, request.body.ids, ctx.clock()));
      return reply.code(204).send();
    },
  );

  typed.get(
    '/api/notification-settings',
    { ...approved, schema: { response: { 200: NotificationSettingsResponseSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      const settings = await asUser(userId, (trx) => findNotificationSettings(trx, userId));
      return { settings, emailAvailable: ctx.mailer.isConfigured };
    },
  );

  typed.put(
    '/api/notification-settings',
    {
      ...approved,
      schema: {
        body: NotificationSettingsChangeSchema,
        response: { 200: NotificationSettingsResponseSchema },
      },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      const settings = await asUser(userId, async (trx) => {
        const saved = await findNotificationSettings(trx, userId);
        await saveNotificationSettings(trx, userId, { ...saved, ...request.body });
        return findNotificationSettings(trx, userId);
      });
      return { settings, emailAvailable: ctx.mailer.isConfigured };
    },
  );
}
