import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookDelivery, WebhookEndpoint } from '#domain/webhooks/webhook-endpoint.schema.ts';
import { NO_BACKGROUND_JOBS_MESSAGE, type ServerInstances } from '#domain/admin/server-instances.ts';
import { createDb } from '../db/database.ts';
import { watchBackgroundJobsRunSomewhere } from '../instance/background-jobs-watch.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../test/fake-webhook-receiver.ts';
import {
  asCookie,
  buildSecondInstance,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type Session,
  type TestContext,
} from '../test/test-app.ts';

/*
 * An instance started with BACKGROUND_JOBS=off (decision 046) answers users and queues their work, and runs none of
 * it: another instance on the same database does.
 */

let ctx: TestContext;
let rep: Session;
let receiver: WebhookReceiver;
beforeEach(async () => {
  receiver = await startWebhookReceiver();
  ctx = await createTestApp({ webhookAllowedHosts: ['127.0.0.1'], runJobs: false });
  rep = await createAccount(ctx, 'user');
});
afterEach(async () => {
  await ctx.close();
  await receiver.close();
});

const send = (method: 'GET' | 'POST', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: asCookie(rep), ...(payload && { payload }) });

describe('an instance with background jobs off', () => {
  it('keeps the work it is given for an instance that runs jobs, which does it', async () => {
    const made = await send('POST', '/api/webhooks', { url: receiver.url, events: ['contact.created'] });
    expect(made.statusCode, made.body).toBe(201);
    const { endpoint } = made.json<{ endpoint: WebhookEndpoint }>();
    const contact = await send('POST', '/api/contacts', {
      firstName: 'Ada',
      lastName: 'Byron',
      email: 'ada@example.com',
    });
    expect(contact.statusCode, contact.body).toBe(201);

    // The event is recorded for delivery, and nothing here delivers it.
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.received).toHaveLength(0);
    const log = async () =>
      (await send('GET', `/api/webhooks/${endpoint.id}/deliveries`)).json<{ deliveries: WebhookDelivery[] }>()
        .deliveries;
    expect((await log()).map((d) => d.status)).toEqual(['pending']);

    // An instance that runs jobs, on the same database, delivers it.
    const worker = await buildSecondInstance(ctx, { webhookAllowedHosts: ['127.0.0.1'], runJobs: true });
    try {
      const deadline = Date.now() + 20_000;
      while (receiver.received.length === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(receiver.received.map((r) => r.json.type)).toEqual(['contact.created']);
      expect(receiver.received[0]!.json.data.firstName).toBe('Ada');
    } finally {
      await worker.close();
    }
  });

  it('tells the administrator, and the log, while no running instance runs background jobs', async () => {
    const admin = await createFirstAdmin(ctx);
    const servers = async () => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/api/admin/instances',
        headers: asCookie(admin),
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<ServerInstances>();
    };
    const logged: { level: string; message: string }[] = [];
    const log = {
      warn: (message: unknown) => void logged.push({ level: 'warn', message: String(message) }),
      info: (message: unknown) => void logged.push({ level: 'info', message: String(message) }),
    } as unknown as Parameters<typeof watchBackgroundJobsRunSomewhere>[1];
    const db = createDb(ctx.db.appUrl, 2);
    const stopWatch = watchBackgroundJobsRunSomewhere({ db }, log, 50);
    const waitForLog = async (level: string) => {
      const deadline = Date.now() + 10_000;
      while (!logged.some((l) => l.level === level) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 25));
    };
    try {
      const alone = await servers();
      expect(alone.backgroundJobsRunning).toBe(false);
      expect(alone.instances.map((i) => [i.running, i.runsBackgroundJobs])).toEqual([[true, false]]);
      await waitForLog('warn');
      expect(logged).toEqual([{ level: 'warn', message: NO_BACKGROUND_JOBS_MESSAGE }]);

      const worker = await buildSecondInstance(ctx, { runJobs: true });
      let workerId: string | undefined;
      try {
        const both = await servers();
        expect(both.backgroundJobsRunning).toBe(true);
        expect(both.instances.filter((i) => i.running)).toHaveLength(2);
        workerId = both.instances.find((i) => i.runsBackgroundJobs)?.id;
        expect(workerId).toBeDefined();
        await waitForLog('info');
        expect(logged.map((l) => l.level)).toEqual(['warn', 'info']);
      } finally {
        await worker.close();
      }
      // The worker has stopped: it is listed, as stopped, and nothing runs the jobs any more.
      const after = await servers();
      expect(after.backgroundJobsRunning).toBe(false);
      expect(after.instances.find((i) => i.id === workerId)?.running).toBe(false);
      // Fifty administrators asking at once all see the same: the stopped one stopped, this one running.
      const many = await Promise.all(Array.from({ length: 50 }, () => servers()));
      for (const answer of many) {
        expect(answer.instances.map((i) => [i.id === workerId, i.running])).toEqual(
          after.instances.map((i) => [i.id === workerId, i.running]),
        );
      }
    } finally {
      stopWatch();
      await db.destroy();
    }
    // No look failed: a failure would have been logged as a warning with its error.
    expect(logged.filter((l) => l.message !== NO_BACKGROUND_JOBS_MESSAGE && l.level === 'warn')).toEqual([]);
  });
});
