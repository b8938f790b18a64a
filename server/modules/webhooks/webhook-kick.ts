import type { FastifyBaseLogger } from 'fastify';
import { withActor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import type { InstanceConnection } from '../../instance/instance-connection.ts';
import type { JobTask } from '../../jobs/job-runner.ts';
import { queueEndpointDelivery } from './webhook-deliver.task.ts';
import { endpointsWithoutJob } from './webhooks.repository.ts';

/** Where the capture announces, at commit, an endpoint with new deliveries (migration 0044). */
export const WEBHOOK_CHANNEL = 'webhook_deliveries';
/** The sweep that queues endpoints whose notice nobody heard; every minute, on one instance. */
export const WEBHOOK_SWEEP_TASK = 'webhook-sweep';
export const WEBHOOK_SWEEP_CRONTAB = `* * * * * ${WEBHOOK_SWEEP_TASK}`;

const GATHER_MS = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Queues an endpoint's delivery job when the capture announces new deliveries for it (decision 035): the notices of
 * the next 50 ms are gathered, and nothing is queued while the endpoint's job waits to run (it will read the new
 * deliveries when it starts): a burst of events is at most one job update per endpoint and run, made outside the
 * transactions that made the events. Every instance hears every notice; the job's key makes their updates one job.
 */
export function listenForWebhookEvents(
  ctx: Pick<AppContext, 'db'>,
  connection: Pick<InstanceConnection, 'listen'>,
  log: FastifyBaseLogger,
): () => void {
  const heard = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    timer = null;
    const endpoints = [...heard];
    heard.clear();
    for (const id of endpoints)
      queueEndpointDelivery(ctx, id, 0, { unlessWaiting: true }).catch((error: unknown) =>
        log.warn({ err: error, endpointId: id }, 'webhook delivery not queued; the sweep will queue it'),
      );
  };
  connection.listen(WEBHOOK_CHANNEL, (payload) => {
    if (!payload || !UUID.test(payload)) return;
    heard.add(payload);
    timer ??= setTimeout(flush, GATHER_MS);
  });
  return () => {
    if (timer) clearTimeout(timer);
  };
}

/** Queues the delivery of every endpoint left with pending deliveries and no job. Returns how many. */
export async function sweepWebhookEndpoints(ctx: Pick<AppContext, 'db'>): Promise<number> {
  const endpoints = await withActor(ctx.db, { kind: 'system' }, (trx) => endpointsWithoutJob(trx));
  for (const id of endpoints) await queueEndpointDelivery(ctx, id);
  return endpoints.length;
}

export function webhookSweepTask(ctx: Pick<AppContext, 'db'>): JobTask {
  return async () => {
    await sweepWebhookEndpoints(ctx);
  };
}
