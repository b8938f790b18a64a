import type { FastifyBaseLogger } from 'fastify';
import { withActor } from '../../db/database.ts';
import { ownLook } from '../../db/own-looks.ts';
import { everyFewMoments } from '../../jobs/every-few-moments.ts';
import type { AppContext } from '../../app-context.ts';
import type { JobTask } from '../../jobs/job-runner.ts';
import { queueEndpointDeliveries } from './webhook-deliver.task.ts';
import { endpointsWithoutJob } from './webhooks.repository.ts';

/** The sweep that queues endpoints with pending deliveries and no job, every minute on one instance as well. */
export const WEBHOOK_SWEEP_TASK = 'webhook-sweep';
export const WEBHOOK_SWEEP_CRONTAB = `* * * * * ${WEBHOOK_SWEEP_TASK}`;

/** How often each instance looks for endpoints with new deliveries. */
export const WEBHOOK_WATCH_MS = 100;

/** Queues the delivery of every endpoint left with pending deliveries and no job, in one transaction. Returns how many. */
export async function sweepWebhookEndpoints(ctx: Pick<AppContext, 'db'>): Promise<number> {
  const endpoints = await withActor(ctx.db, { kind: 'system' }, (trx) => endpointsWithoutJob(trx));
  return endpoints.length === 0 ? 0 : queueEndpointDeliveries(ctx, endpoints);
}

/**
 * Queues the delivery jobs of endpoints with new deliveries (decision 035): each instance looks every
 * WEBHOOK_WATCH_MS for endpoints with pending deliveries and no job (the capture writes only the delivery rows, in the
 * event's transaction, and sends no notice: see migration 0048). The job's key makes two instances' finds one job; a
 * job that ends as a delivery arrives leaves it pending with no job, which the next look finds.
 */
export function watchWebhookDeliveries(ctx: Pick<AppContext, 'db'>, log: FastifyBaseLogger): () => void {
  return everyFewMoments(
    WEBHOOK_WATCH_MS,
    async () => {
      await ownLook(ctx.db, () => sweepWebhookEndpoints(ctx));
    },
    log,
    'webhook deliveries not queued; trying again',
  ).stop;
}

export function webhookSweepTask(ctx: Pick<AppContext, 'db'>): JobTask {
  return async () => {
    await sweepWebhookEndpoints(ctx);
  };
}
