import { z } from 'zod';
import { KeysetPositionSchema } from '../paging/keyset-position.schema.ts';

/**
 * Notifications (Settings → Notifications): what the product really tells a user, each kind with an on/off
 * in the app and by e-mail, stored on the server.
 */
export const NotificationKindSchema = z.enum([
  'callback-due',
  'campaign-finished',
  'campaign-failed',
  'new-signup',
  'missed-call',
  'voicemail',
  'webhook-disabled',
  'integration-failed',
]);
export type NotificationKind = z.infer<typeof NotificationKindSchema>;

export const NotificationSettingsSchema = z.object({
  callbacksApp: z.boolean(),
  callbacksEmail: z.boolean(),
  campaignsApp: z.boolean(),
  campaignsEmail: z.boolean(),
  signupsApp: z.boolean(),
  signupsEmail: z.boolean(),
  missedCallsApp: z.boolean(),
  missedCallsEmail: z.boolean(),
  integrationsApp: z.boolean(),
  integrationsEmail: z.boolean(),
});
export type NotificationSettings = z.infer<typeof NotificationSettingsSchema>;

/**
 * What a PUT carries: any of the settings; those left out keep their saved value, so a script written before a
 * setting existed goes on working.
 */
export const NotificationSettingsChangeSchema = NotificationSettingsSchema.partial();
export type NotificationSettingsChange = z.infer<typeof NotificationSettingsChangeSchema>;

/** With no row saved, every notification is on. */
export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  callbacksApp: true,
  callbacksEmail: true,
  campaignsApp: true,
  campaignsEmail: true,
  signupsApp: true,
  signupsEmail: true,
  missedCallsApp: true,
  missedCallsEmail: true,
  integrationsApp: true,
  integrationsEmail: true,
};

export const NotificationSettingsResponseSchema = z.object({
  settings: NotificationSettingsSchema,
  /** Whether this instance can send e-mail (SYSTEM_SMTP_URL); without it, notifications are in the app only. */
  emailAvailable: z.boolean(),
});

export const NotificationSchema = z.object({
  id: z.string(),
  kind: NotificationKindSchema,
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  createdAt: z.string(),
  read: z.boolean(),
});
export type Notification = z.infer<typeof NotificationSchema>;

export const NotificationsQuerySchema = z.object({
  after: KeysetPositionSchema.optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

export const NotificationsPageSchema = z.object({
  notifications: z.array(NotificationSchema),
  unread: z.number().int(),
  next: z.string().nullable(),
});

/** Mark some as read, or all of them when no ids are given. */
export const MarkReadSchema = z.object({ ids: z.array(z.uuid()).max(100).optional() });
