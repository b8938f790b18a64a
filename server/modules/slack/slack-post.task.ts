import {
  noticeMessage,
  qualifiedLeadMessage,
  SlackEventSchema,
  type SlackMessage,
} from '#domain/slack/slack-messages.ts';
import { withActor } from '../../db/database.ts';
import type { JobTask } from '../../jobs/job-runner.ts';
import type { AppContext } from '../../app-context.ts';
import {
  findNoticeForSlack,
  findQualifiedLeadForSlack,
  findSlackConnection,
  recordSlackOutcome,
} from './slack-connections.repository.ts';
import { sendToSlack } from './slack-sender.ts';

/** The job queue's name for one Slack post (queued by the triggers of migration 0041). */
export const SLACK_POST_TASK = 'slack-post';

type Payload = { userId: string; event: string; notificationId?: string; dispositionId?: string };

/**
 * Posts one event to the user's Slack, if they still have it connected with that event chosen. The message is built
 * when it is sent, from what the event is about. A failure worth retrying fails the job (the queue retries it with
 * back-off, 8 attempts over about two hours); a permanent one (the webhook is gone) is only recorded for the card.
 * A retry after a post that went through but was not recorded sends it again: at least once.
 */
export function slackPostTask(
  ctx: Pick<AppContext, 'db' | 'secretBox' | 'publicUrl' | 'clock' | 'webhookAllowedHosts'>,
): JobTask {
  return async (raw) => {
    const payload = raw as Payload;
    const event = SlackEventSchema.safeParse(payload.event);
    if (!event.success) return;
    const userId = payload.userId;
    const post = await withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
      const connection = await findSlackConnection(trx, userId);
      if (!connection?.events.includes(event.data)) return null;
      let message: SlackMessage | null = null;
      if (event.data === 'qualified-lead' && payload.dispositionId) {
        const lead = await findQualifiedLeadForSlack(trx, userId, payload.dispositionId);
        if (lead)
          message = qualifiedLeadMessage(
            {
              contactId: lead.contact_id,
              name: `${lead.first_name} ${lead.last_name}`,
              company: lead.company,
              phone: lead.phone,
              email: lead.email,
              notes: lead.notes,
            },
            ctx.publicUrl,
          );
      } else if (event.data !== 'qualified-lead' && payload.notificationId) {
        const notice = await findNoticeForSlack(trx, userId, payload.notificationId);
        if (notice) message = noticeMessage(event.data, notice, ctx.publicUrl);
      }
      return message && { url: ctx.secretBox.open(connection.webhook_url_sealed), message };
    });
    if (!post) return;
    const outcome = await sendToSlack(ctx, post.url, post.message);
    const now = ctx.clock();
    await withActor(ctx.db, { kind: 'user', userId }, (trx) =>
      recordSlackOutcome(trx, userId, outcome.ok ? { sentAt: now } : { error: outcome.error, at: now }),
    );
    if (!outcome.ok && outcome.retry) throw new Error(outcome.error);
  };
}
