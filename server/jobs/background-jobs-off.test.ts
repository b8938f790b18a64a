import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookDelivery, WebhookEndpoint } from '#domain/webhooks/webhook-endpoint.schema.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../test/fake-webhook-receiver.ts';
import {
  asCookie,
  buildSecondInstance,
  createAccount,
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
});
