import {
  deliverableNow,
  nextAttemptAt,
  nextDueAt,
  shouldDisable,
} from '#domain/webhooks/webhook-delivery.ts';
import type { Transaction } from 'kysely';
import { withActor, type Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { enqueueJob } from '../../jobs/enqueue-job.ts';
import type { JobTask } from '../../jobs/job-runner.ts';
import type { AppContext } from '../../app-context.ts';
import { DestinationRefused, postJson } from '../../http/outgoing-post.ts';
import { notifyUser } from '../notifications/public.ts';
import { webhookHeaders } from './webhook-signature.ts';
import {
  commitWithoutWaitingForDisk,
  deliveryJobsWaiting,
  findEndpointForDelivery,
  inDeliveryTransaction,
  markEndpointHealth,
  pendingDeliveries,
  recordAttempts,
  type AttemptOutcome,
  tryLockEndpoint,
  unlockEndpoint,
} from './webhooks.repository.ts';

/** The job queue's name for delivering one endpoint's pending events (queued by the triggers of migration 0042). */
export const WEBHOOK_DELIVER_TASK = 'webhook-deliver';

const BATCH = 200;
/**
 * How many of an endpoint's deliveries are sent at once, a group whose outcomes are committed together once all have
 * answered: an endpoint's pace is this many per group's turn (its sends and one transaction), so at 100 events a second
 * to one endpoint a group of 10 left no room once the machine was busy (decision 035, "Groups of 25").
 */
export const DELIVERIES_AT_ONCE = 25;
const ROUNDS = 20;
const TIMEOUT_MS = 10_000;
/**
 * A run stops starting groups after this long and queues itself again, so a slow receiver never holds one of the
 * job queue's few workers (campaign sends, calls) for long.
 */
const RUN_BUDGET_MS = 2_000;

type Ctx = Pick<AppContext, 'db' | 'secretBox' | 'clock' | 'webhookAllowedHosts'>;

/**
 * Queues the endpoint's job for when its next delivery is due, `delayMs` from now (at once by default). The queue
 * keeps real time; the delay is measured on the app's clock.
 */
export async function queueEndpointDelivery(ctx: Pick<AppContext, 'db'>, endpointId: string, delayMs = 0) {
  const runAt = delayMs > 0 ? new Date(Date.now() + delayMs) : undefined;
  await withActor(ctx.db, { kind: 'system' }, async (trx) => {
    await commitWithoutWaitingForDisk(trx);
    await enqueueDelivery(trx, endpointId, runAt);
  });
}

/**
 * Queues at once, in one transaction, the job of each of these endpoints that has none waiting to run (one that
 * waits will read the new deliveries when it starts). Answers how many were queued.
 */
export async function queueEndpointDeliveries(
  ctx: Pick<AppContext, 'db'>,
  endpointIds: string[],
): Promise<number> {
  return withActor(ctx.db, { kind: 'system' }, async (trx) => {
    const waiting = await deliveryJobsWaiting(trx, endpointIds);
    const toQueue = endpointIds.filter((id) => !waiting.has(id));
    if (toQueue.length === 0) return 0;
    await commitWithoutWaitingForDisk(trx);
    for (const id of toQueue) await enqueueDelivery(trx, id);
    return toQueue.length;
  });
}

const enqueueDelivery = (trx: Transaction<Database>, endpointId: string, runAt?: Date) =>
  enqueueJob(
    trx,
    WEBHOOK_DELIVER_TASK,
    { endpointId },
    { jobKey: `${WEBHOOK_DELIVER_TASK}:${endpointId}`, maxAttempts: 25, ...(runAt && { runAt }) },
  );

/** What a delivery's event no longer stored answers (retention never removes an event a delivery names). */
const EVENT_GONE = 'Not sent: its event is no longer stored.';

/** One attempt: the event's payload, as stored, signed and POSTed; its body is sent as the exact text signed. */
async function attempt(ctx: Ctx, url: string, secret: string, id: string, body: string | null, now: Date) {
  if (body === null) return { ok: false as const, status: null, error: EVENT_GONE };
  try {
    const answer = await postJson(url, body, {
      allowedHosts: ctx.webhookAllowedHosts,
      timeoutMs: TIMEOUT_MS,
      headers: webhookHeaders(secret, id, Math.floor(now.getTime() / 1000), body),
    });
    if (answer.status >= 200 && answer.status < 300) return { ok: true as const, status: answer.status };
    // The receiver's words, on one line (an error page's HTML would fill the log otherwise).
    const words = answer.text.replace(/\s+/g, ' ').trim().slice(0, 200);
    return {
      ok: false as const,
      status: answer.status,
      error: `Answered ${answer.status}${words ? `: ${words}` : ''}`,
    };
  } catch (error) {
    const reason =
      error instanceof DestinationRefused ? error.message : `Not reached: ${(error as Error).message}`;
    return { ok: false as const, status: null, error: reason };
  }
}

/**
 * Delivers an endpoint's pending events (decision 035): one worker per endpoint at a time (a session lock on one
 * reserved connection, which PostgreSQL frees if the process dies), each contact's events in order
 * (`deliverableNow`, in rounds), a few at once across contacts, each signed the Standard Webhooks way with its stable
 * id. A success delivers; a failure is tried again on the back-off schedule until 24 hours have passed, then failed
 * (redeliverable from the log). An endpoint that has only failed for 3 days is disabled and its owner told. Each
 * group's outcomes are committed as soon as it is sent: killed mid-way, at most the group in flight is sent again,
 * with the same ids (at least once). Then the job queues itself for the next delivery due.
 */
export function webhookDeliverTask(ctx: Ctx): JobTask {
  return async (raw) => {
    const { endpointId } = raw as { endpointId: string };
    const next = await ctx.db.connection().execute(async (conn) => {
      if (!(await tryLockEndpoint(conn, endpointId))) return 1000;
      try {
        return await deliverPending(ctx, conn, endpointId);
      } finally {
        await unlockEndpoint(conn, endpointId);
      }
    });
    if (next !== null) await queueEndpointDelivery(ctx, endpointId, next);
  };
}

/** A delivery job's transaction, as the system (the job has no session), with its settings. */
const asSystem = <T>(conn: Db, work: (trx: Transaction<Database>) => Promise<T>) =>
  withActor(conn, { kind: 'system' }, async (trx) => {
    await inDeliveryTransaction(trx);
    return work(trx);
  });

const asPending = (
  rows: readonly { id: string; order_key: string | null; sequence: string | number; due_at: Date }[],
) => rows.map((p) => ({ id: p.id, orderKey: p.order_key, sequence: Number(p.sequence), dueAt: p.due_at }));

/**
 * The delivery rounds of one endpoint, on the locked connection; resolves with the wait for the next due (ms). Each
 * group's outcomes are committed as soon as it is sent, and the last group of a round reads the next round's pending
 * deliveries in the same transaction: a run that sends one group takes two transactions (decision 035).
 */
async function deliverPending(ctx: Ctx, conn: Db, endpointId: string): Promise<number | null> {
  const first = await asSystem(conn, async (trx) => {
    const endpoint = await findEndpointForDelivery(trx, endpointId);
    return endpoint?.enabled ? { endpoint, pending: await pendingDeliveries(trx, endpointId, BATCH) } : null;
  });
  if (!first) return null;
  const { endpoint } = first;
  let pending = first.pending;
  const secret = ctx.secretBox.open(endpoint.secret_sealed);
  let delivered = 0;
  let failed = 0;
  let lastError = '';
  const stopAt = Date.now() + RUN_BUDGET_MS;
  for (let round = 0; round < ROUNDS && Date.now() < stopAt; round++) {
    const now = ctx.clock();
    const ready = deliverableNow(asPending(pending), now);
    if (ready.length === 0) break;
    const rows = new Map(pending.map((p) => [p.id, p]));
    for (let i = 0; i < ready.length; i += DELIVERIES_AT_ONCE) {
      const group = ready.slice(i, i + DELIVERIES_AT_ONCE).map((d) => rows.get(d.id)!);
      const outcomes = await Promise.all(
        group.map((row) => attempt(ctx, endpoint.url, secret, row.id, row.body, now)),
      );
      const at = ctx.clock();
      const recorded = outcomes.map((outcome, k): AttemptOutcome => {
        const row = group[k]!;
        if (outcome.ok) delivered++;
        else {
          failed++;
          lastError = outcome.error;
        }
        const retryAt =
          outcome.ok || row.body === null ? null : nextAttemptAt(row.event_at, row.attempts + 1, at);
        return {
          id: row.id,
          status: outcome.ok ? 'delivered' : retryAt ? 'pending' : 'failed',
          attempts: row.attempts + 1,
          dueAt: retryAt ?? row.due_at,
          lastStatus: outcome.status,
          lastError: outcome.ok ? null : outcome.error,
          at,
        };
      });
      const lastOfRound = i + DELIVERIES_AT_ONCE >= ready.length || Date.now() >= stopAt;
      if (!lastOfRound) {
        await asSystem(conn, (trx) => recordAttempts(trx, recorded));
        continue;
      }
      pending = await asSystem(conn, async (trx) => {
        await recordAttempts(trx, recorded);
        return pendingDeliveries(trx, endpointId, BATCH);
      });
      break;
    }
  }
  const health = await settleHealth(ctx, conn, endpoint, { delivered, failed, lastError });
  if (health === 'disabled') return null;
  const due = nextDueAt(asPending(pending));
  return due && Math.max(0, due.getTime() - ctx.clock().getTime());
}

type DeliveryEndpoint = NonNullable<Awaited<ReturnType<typeof findEndpointForDelivery>>>;

/**
 * Writes down how the endpoint fares, only when that changed: a success ends a failing stretch; a run of nothing but
 * failures starts one, and one that has lasted 3 days disables the endpoint and tells its owner.
 */
async function settleHealth(
  ctx: Ctx,
  conn: Db,
  endpoint: DeliveryEndpoint,
  run: { delivered: number; failed: number; lastError: string },
): Promise<'unchanged' | 'written' | 'disabled'> {
  const now = ctx.clock();
  if (run.delivered > 0) {
    if (endpoint.failing_since === null) return 'unchanged';
    await asSystem(conn, (trx) => markEndpointHealth(trx, endpoint.id, { failingSince: null }));
    return 'written';
  }
  if (run.failed === 0) return 'unchanged';
  const failingSince = endpoint.failing_since ?? now;
  const disable = shouldDisable(failingSince, now);
  if (!disable && endpoint.failing_since !== null) return 'unchanged';
  const disabledReason = `Every delivery failed for 3 days; the last: ${run.lastError}`.slice(0, 500);
  await asSystem(conn, async (trx) => {
    await markEndpointHealth(trx, endpoint.id, { failingSince, ...(disable && { disabledReason }) });
    if (disable)
      await notifyUser(trx, {
        userId: endpoint.user_id,
        kind: 'webhook-disabled',
        subject: `${endpoint.id}:${failingSince.toISOString()}`,
        title: `Webhook turned off: ${endpoint.description || endpoint.url}`,
        body: `${disabledReason}. The events not yet delivered are kept: turn it back on in Settings → Integrations → Webhooks to send them. Nothing is recorded for it while it is off.`,
        link: '/settings?tab=integrations',
      });
  });
  return disable ? 'disabled' : 'written';
}
