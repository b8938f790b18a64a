import { DELIVERY_LOG_KEPT_DAYS } from '#domain/webhooks/webhook-delivery.ts';
import { withActor, type DbExecutor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import type { JobTask } from '../../jobs/job-runner.ts';
import { deleteSettledDeliveries, deleteUnnamedEvents } from './webhooks.repository.ts';

/** The job queue's name for the hourly pruning of the webhook delivery log (run by the queue's crontab). */
export const WEBHOOK_LOG_RETENTION_TASK = 'webhook-log-retention';
/**
 * Every hour at minute 41, on one instance (the queue's crontab runs each entry once, whatever the instances): at a
 * thousand deliveries a second an hour is 3.6 million rows, which a daily run would have to delete at once.
 */
export const WEBHOOK_LOG_RETENTION_CRONTAB = `41 * * * * ${WEBHOOK_LOG_RETENTION_TASK}`;
const BATCH = 5000;
const DAY_MS = 86_400_000;

/**
 * Deletes the deliveries done with (delivered or given up) whose event, or last redelivery, is more than
 * DELIVERY_LOG_KEPT_DAYS old, a batch per transaction so a large backlog never holds one long lock or one huge
 * transaction (decision 035, "Retention"). Deliveries still being tried are kept. Then the events as old that no
 * delivery names any more (migration 0056), the same way. Returns how many of each went.
 */
export async function pruneDeliveryLog(
  ctx: Pick<AppContext, 'db' | 'clock'>,
): Promise<{ deliveries: number; events: number }> {
  const before = new Date(ctx.clock().getTime() - DELIVERY_LOG_KEPT_DAYS * DAY_MS);
  const inBatches = async (prune: (trx: DbExecutor, before: Date, limit: number) => Promise<number>) => {
    let deleted = 0;
    for (;;) {
      const batch = await withActor(ctx.db, { kind: 'system' }, (trx) => prune(trx, before, BATCH));
      deleted += batch;
      if (batch < BATCH) return deleted;
    }
  };
  const deliveries = await inBatches(deleteSettledDeliveries);
  return { deliveries, events: await inBatches(deleteUnnamedEvents) };
}

export function webhookLogRetentionTask(ctx: AppContext): JobTask {
  return async () => {
    await pruneDeliveryLog(ctx);
  };
}
