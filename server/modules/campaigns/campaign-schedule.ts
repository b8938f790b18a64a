import { effectivePace } from '#domain/campaigns/campaign-pace.ts';
import type { DbExecutor } from '../../db/database.ts';
import { enqueueJob } from '../../jobs/enqueue-job.ts';
import { lastAttempt, type CampaignKind } from './campaign-recipients.repository.ts';
import { findSendingLimits } from './sending-limits.ts';

export const EMAIL_CAMPAIGN_TASK = 'email-campaign-send';
export const SMS_CAMPAIGN_TASK = 'sms-campaign-send';
const TASKS: Record<CampaignKind, string> = { email: EMAIL_CAMPAIGN_TASK, sms: SMS_CAMPAIGN_TASK };

/**
 * Queues a run of a campaign's send, in the caller's transaction (it exists exactly when the change that asked for
 * it commits). One waiting run per campaign (its job key); runs of one user's campaigns of a kind go one after
 * another (the user's named queue), so at most one ever sends for a campaign, whichever instance runs it, and the
 * user's sending limit holds across their campaigns.
 */
export function scheduleRun(
  db: DbExecutor,
  kind: CampaignKind,
  campaignId: string,
  userId: string,
  runAt?: Date,
): Promise<void> {
  return enqueueJob(
    db,
    TASKS[kind],
    { campaignId, userId },
    {
      jobKey: `${kind}-campaign:${campaignId}`,
      queueName: `${kind}-campaigns:${userId}`,
      maxAttempts: 25,
      ...(runAt && { runAt }),
    },
  );
}

/**
 * Queues the campaign's next run keeping its pace (under the user's limit): a spacing after the last message
 * handed over, or now (resuming, or a contact joining a sequence under way). `now` is the app's clock; the job queue
 * runs on the database's, so the wait is passed as a difference.
 */
export async function scheduleRunAtPace(
  db: DbExecutor,
  kind: CampaignKind,
  campaign: { id: string; perMinute: number },
  userId: string,
  now: Date,
): Promise<void> {
  const last = await lastAttempt(db, kind, campaign.id);
  const limits = await findSendingLimits(db, userId);
  const pace = effectivePace(
    campaign.perMinute,
    kind === 'email' ? limits.emailPerMinute : limits.smsPerMinute,
  );
  const wait = last ? last.getTime() + 60_000 / pace - now.getTime() : 0;
  await scheduleRun(db, kind, campaign.id, userId, wait > 0 ? new Date(Date.now() + wait) : undefined);
}
