import type { NotificationKind } from '#domain/notifications/notification.schema.ts';
import { withActor } from '../../db/database.ts';
import type { JobTask } from '../../jobs/job-runner.ts';
import type { AppContext } from '../../app-context.ts';
import { claimNotificationEmail, findNotificationSettings } from './notifications.repository.ts';

/** The job queue's name for a notification's e-mail (queued by notify_user, migration 0023). */
export const NOTIFICATION_EMAIL_TASK = 'notification-email';

const EMAIL_SETTING: Record<
  NotificationKind,
  'callbacksEmail' | 'campaignsEmail' | 'signupsEmail' | 'missedCallsEmail' | 'integrationsEmail'
> = {
  'callback-due': 'callbacksEmail',
  'campaign-finished': 'campaignsEmail',
  'campaign-failed': 'campaignsEmail',
  'new-signup': 'signupsEmail',
  'missed-call': 'missedCallsEmail',
  voicemail: 'missedCallsEmail',
  'webhook-disabled': 'integrationsEmail',
  'integration-failed': 'integrationsEmail',
};

/**
 * Sends one notification by e-mail through the instance's mail server, when there is one and the user still wants
 * this kind by e-mail. The notification is marked e-mailed before it is handed over, in its own transaction: a
 * crash or a retry after that point never sends it twice (at most once, as campaign e-mails; decision 017).
 */
export function notificationEmailTask(
  ctx: Pick<AppContext, 'db' | 'mailer' | 'publicUrl' | 'clock'>,
): JobTask {
  return async (payload) => {
    if (!ctx.mailer.isConfigured) return;
    const { notificationId } = payload as { notificationId: string };
    const claimed = await withActor(ctx.db, { kind: 'system' }, async (trx) => {
      const row = await claimNotificationEmail(trx, notificationId, ctx.clock());
      if (!row) return null;
      const settings = await findNotificationSettings(trx, row.user_id);
      const active = row.deactivated_at === null && row.role !== 'denied';
      return active && settings[EMAIL_SETTING[row.kind]] ? row : null;
    });
    if (!claimed) return;
    const link = claimed.link ? `\n\nOpen it: ${ctx.publicUrl}${claimed.link}` : '';
    await ctx.mailer.send({
      kind: 'notification',
      to: claimed.email,
      subject: claimed.title,
      text: `${claimed.body}${link}\n\nYou can turn these e-mails off in Settings → Notifications.`,
    });
  };
}
