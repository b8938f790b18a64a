import { effectivePace, limitFor, nextSlot } from '#domain/campaigns/campaign-pace.ts';
import type { CampaignChannel } from '#domain/campaigns/campaign-state.ts';
import type { DbExecutor } from '../../db/database.ts';
import { enqueueJob } from '../../jobs/enqueue-job.ts';
import { lastAttempt } from './campaigns.repository.ts';
import { findSendingLimits } from './sending-limits.repository.ts';

export const SEND_TASKS: Record<CampaignChannel, string> = {
  email: 'email-campaign-send',
  sms: 'sms-campaign-send',
};

/**
 * Queues a run of a campaign's send, in the caller's transaction (it exists exactly when the change that asked for
 * it commits). One waiting run per campaign (its job key); runs of one user's campaigns of a channel go one after
 * another (the user's named queue), so at most one ever sends for a campaign, whichever instance runs it, and the
 * user's sending limit holds across their campaigns.
 */
export function scheduleRun(
  db: DbExecutor,
  channel: CampaignChannel,
  campaignId: string,
  userId: string,
  runAt?: Date,
): Promise<void> {
  return enqueueJob(
    db,
    SEND_TASKS[channel],
    { campaignId, userId },
    {
      jobKey: `${channel}-campaign:${campaignId}`,
      queueName: `${channel}-campaigns:${userId}`,
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
  channel: CampaignChannel,
  campaign: { id: string; perMinute: number },
  userId: string,
  now: Date,
): Promise<void> {
  const limits = await findSendingLimits(db, userId);
  const pace = effectivePace(campaign.perMinute, limitFor(limits, channel));
  const slot = nextSlot(await lastAttempt(db, channel, campaign.id), pace, now);
  const runAt = slot ? new Date(Date.now() + slot.getTime() - now.getTime()) : undefined;
  await scheduleRun(db, channel, campaign.id, userId, runAt);
}
