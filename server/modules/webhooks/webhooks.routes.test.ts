import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookDelivery, WebhookEndpoint } from '#domain/webhooks/webhook-endpoint.schema.ts';
import { insertContact } from '../../test/contact-factory.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/fake-webhook-receiver.ts';
import {
  asCookie,
  buildSecondInstance,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';
import { sweepWebhookEndpoints } from './webhook-kick.ts';
import { pruneDeliveryLog } from './webhook-log-retention.task.ts';
import { verifyWebhook } from './webhook-signature.ts';

/*
 * Outgoing webhooks (decision 035) through the real routes, triggers, job queue and PostgreSQL, to a local receiver:
 * events captured with the change, signed the Standard Webhooks way, each contact's in order, retried with the same
 * id, given up after 24 hours, redelivered from the log, and an endpoint failing for 3 days turned off.
 */

let ctx: TestContext;
let rep: Session;
let receiver: WebhookReceiver;
beforeEach(async () => {
  receiver = await startWebhookReceiver();
  ctx = await createTestApp({ webhookAllowedHosts: ['127.0.0.1'] });
  rep = await createAccount(ctx, 'user');
});
afterEach(async () => {
  await ctx.close();
  await receiver.close();
});

const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, who = rep) =>
  ctx.app.inject({ method, url, headers: asCookie(who), ...(payload && { payload }) });
const register = async (events: string[]) => {
  const made = await send('POST', '/api/webhooks', { url: receiver.url, description: 'Warehouse', events });
  expect(made.statusCode, made.body).toBe(201);
  return made.json<{ endpoint: WebhookEndpoint; secret: string }>();
};
const until = async (check: () => boolean | Promise<boolean>, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};
const log = async (endpointId: string) =>
  (await send('GET', `/api/webhooks/${endpointId}/deliveries`)).json<{ deliveries: WebhookDelivery[] }>()
    .deliveries;
const types = () =>
  receiver.received.map((r) => `${r.json.type} ${String(r.json.data.firstName ?? r.json.data.disposition)}`);

describe('outgoing webhooks', () => {
  it('delivers each subscribed event, signed, in the order it happened', async () => {
    const { endpoint, secret } = await register([
      'contact.created',
      'contact.updated',
      'contact.deleted',
      'disposition.saved',
    ]);
    expect(secret).toMatch(/^whsec_/);
    expect((await send('GET', '/api/webhooks')).body).not.toContain(secret);
    expect((await send('GET', `/api/webhooks/${endpoint.id}/secret`)).json()).toEqual({ secret });

    const ada = await insertContact(ctx.app, rep, { firstName: 'Ada', lastName: 'Byron' });
    expect((await send('PATCH', `/api/contacts/${ada.id}`, { company: 'Engines Ltd' })).statusCode).toBe(200);
    const saved = await send('POST', '/api/dispositions', { contactId: ada.id, disposition: 'no-answer' });
    expect(saved.statusCode, saved.body).toBe(201);
    expect((await send('DELETE', `/api/contacts/${ada.id}`)).statusCode).toBe(204);
    await until(() => receiver.received.length >= 4);
    await new Promise((r) => setTimeout(r, 300));
    expect(types()).toEqual([
      'contact.created Ada',
      'contact.updated Ada',
      'disposition.saved no-answer',
      'contact.deleted Ada',
    ]);
    expect(receiver.received[1]!.json.data).toMatchObject({ id: ada.id, company: 'Engines Ltd' });
    const now = Math.floor(ctx.clock.now().getTime() / 1000);
    for (const { headers, body } of receiver.received) {
      const signed = {
        id: String(headers['webhook-id']),
        timestamp: String(headers['webhook-timestamp']),
        signature: String(headers['webhook-signature']),
      };
      expect(verifyWebhook(secret, signed, body, now)).toBe(true);
    }
    // The receiver has answered; the log records it once the delivery's job has written the answer down.
    await until(async () => (await log(endpoint.id)).every((d) => d.status === 'delivered'));
    const entries = await log(endpoint.id);
    expect(entries.map((d) => d.status)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    expect(entries[0]).toMatchObject({ type: 'contact.deleted', attempts: 1, lastStatus: 200 });
  });

  it('sends nothing for events it was not asked for, nor for another user, nor when it is turned off', async () => {
    const { endpoint } = await register(['contact.deleted']);
    await insertContact(ctx.app, rep, { firstName: 'Quiet' });
    const other = await createAccount(ctx, 'user');
    const theirs = await insertContact(ctx.app, other, { firstName: 'Theirs' });
    expect((await send('DELETE', `/api/contacts/${theirs.id}`, undefined, other)).statusCode).toBe(204);
    expect((await send('PATCH', `/api/webhooks/${endpoint.id}`, { enabled: false })).statusCode).toBe(200);
    const mine = await insertContact(ctx.app, rep, { firstName: 'Mine' });
    expect((await send('DELETE', `/api/contacts/${mine.id}`)).statusCode).toBe(204);
    await new Promise((r) => setTimeout(r, 700));
    expect(receiver.received).toHaveLength(0);
    expect(await log(endpoint.id)).toEqual([]);
  });

  it('retries a failure with the same id, and keeps a contact’s later events behind it while others go', async () => {
    const { endpoint } = await register(['contact.created', 'contact.updated']);
    receiver.answers.push(500);
    const ada = await insertContact(ctx.app, rep, { firstName: 'Ada' });
    await until(() => receiver.received.length === 1);
    expect((await send('PATCH', `/api/contacts/${ada.id}`, { company: 'Later' })).statusCode).toBe(200);
    await insertContact(ctx.app, rep, { firstName: 'Bob' });
    await until(() => receiver.received.length === 2);
    // Bob went; Ada's change waits for her creation, which waits 5 s for its retry.
    expect(types()).toEqual(['contact.created Ada', 'contact.created Bob']);
    const failed = (await log(endpoint.id)).find(
      (d) => d.type === 'contact.created' && d.status === 'pending',
    );
    expect(failed).toMatchObject({ attempts: 1, lastStatus: 500, lastError: 'Answered 500: receiver broke' });
    ctx.clock.advance(5_000);
    await until(() => receiver.received.length === 4);
    expect(types()).toEqual([
      'contact.created Ada',
      'contact.created Bob',
      'contact.created Ada',
      'contact.updated Ada',
    ]);
    expect(receiver.received[2]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
    // Recorded once the job has written the last answer down, a moment after the receiver saw it.
    await until(async () => {
      const entries = await log(endpoint.id);
      return entries.length === 3 && entries.every((d) => d.status === 'delivered');
    });
  });

  it('gives a delivery up after 24 hours, redelivers it from the log with the same id', async () => {
    const { endpoint } = await register(['contact.created']);
    receiver.answers.push(503, 503);
    await insertContact(ctx.app, rep, { firstName: 'Ada' });
    await until(() => receiver.received.length === 1);
    // The event is a day old by the next attempt.
    await ctx.db.admin.query(
      `update webhook_deliveries set event_at = $1::timestamptz - interval '25 hours'`,
      [ctx.clock.now()],
    );
    ctx.clock.advance(5_000);
    await until(async () => (await log(endpoint.id))[0]!.status === 'failed');
    expect(receiver.received).toHaveLength(2);
    const [gaveUp] = await log(endpoint.id);
    const again = await send('POST', `/api/webhook-deliveries/${gaveUp!.id}/redeliver`);
    expect(again.statusCode).toBe(202);
    await until(() => receiver.received.length === 3);
    expect(receiver.received[2]!.headers['webhook-id']).toBe(gaveUp!.id);
    await until(async () => (await log(endpoint.id))[0]!.status === 'delivered');
    const other = await createAccount(ctx, 'user');
    expect(
      (await send('POST', `/api/webhook-deliveries/${gaveUp!.id}/redeliver`, undefined, other)).statusCode,
    ).toBe(404);
  });

  it('keeps the log 30 days: older delivered and given-up deliveries go, those still tried stay, a redelivery starts again', async () => {
    const { endpoint } = await register(['contact.created']);
    for (const firstName of ['Ada', 'Bea', 'Cy', 'Dot', 'Eve'])
      await insertContact(ctx.app, rep, { firstName });
    await until(async () => (await log(endpoint.id)).every((d) => d.status === 'delivered'));
    // Ada delivered 31 days ago, Bea given up 31 days ago, Cy still being retried at 31 days (its owner turned the
    // endpoint off and on), Dot delivered 29 days ago, Eve delivered 31 days ago and redelivered today.
    const age = async (name: string, days: number, status: string) => {
      const event = `select id from webhook_events where payload -> 'data' ->> 'firstName' = $2`;
      await ctx.db.admin.query(
        `update webhook_events set event_at = $1::timestamptz - make_interval(days => $3) where id in (${event})`,
        [ctx.clock.now(), name, days],
      );
      await ctx.db.admin.query(
        `update webhook_deliveries set event_at = $1::timestamptz - make_interval(days => $3), status = $4,
           due_at = $1::timestamptz + interval '90 days'
         where event_id in (${event})`,
        [ctx.clock.now(), name, days, status],
      );
    };
    await age('Ada', 31, 'delivered');
    await age('Bea', 31, 'failed');
    await age('Cy', 31, 'pending');
    await age('Dot', 29, 'delivered');
    await age('Eve', 31, 'delivered');
    const eveId = (
      await ctx.db.admin.query<{ id: string }>(
        `select d.id from webhook_deliveries d join webhook_events e on e.id = d.event_id
         where e.payload -> 'data' ->> 'firstName' = 'Eve'`,
      )
    ).rows[0]!.id;
    expect((await send('POST', `/api/webhook-deliveries/${eveId}/redeliver`)).statusCode).toBe(202);
    await until(() => receiver.received.length === 6);
    // And 10,001 more a year old, so the deletion takes more than one batch.
    await ctx.db.admin.query(
      `with old as (
         insert into webhook_events (user_id, event_at, payload)
         select $2, $3::timestamptz - interval '1 year', '{}' from generate_series(1, 10001) returning id)
       insert into webhook_deliveries (id, endpoint_id, user_id, type, event_at, event_id, status, due_at)
       select 'msg_old_' || id, $1, $2, 'contact.created', $3::timestamptz - interval '1 year', id, 'delivered', $3
       from old`,
      [endpoint.id, rep.userId, ctx.clock.now()],
    );

    // Their events go with them, except Eve's: old, but its redelivered delivery still names it.
    expect(await pruneDeliveryLog(ctx.app.ctx)).toEqual({ deliveries: 10_003, events: 10_003 });
    const kept = await ctx.db.admin.query<{ name: string; status: string }>(
      `select e.payload -> 'data' ->> 'firstName' as name, d.status
       from webhook_deliveries d join webhook_events e on e.id = d.event_id order by d.sequence`,
    );
    expect(kept.rows.map((r) => r.name)).toEqual(['Cy', 'Dot', 'Eve']);
    expect(await pruneDeliveryLog(ctx.app.ctx)).toEqual({ deliveries: 0, events: 0 });
    // A month on, Dot and Eve are done with and old; Cy is still being tried and stays, with its event.
    ctx.clock.advance(31 * 86_400_000);
    expect(await pruneDeliveryLog(ctx.app.ctx)).toEqual({ deliveries: 2, events: 2 });
    const events = await ctx.db.admin.query<{ name: string }>(
      `select payload -> 'data' ->> 'firstName' as name from webhook_events`,
    );
    expect(events.rows.map((r) => r.name)).toEqual(['Cy']);
    expect((await log(endpoint.id)).map((d) => d.id)).toEqual([
      (await ctx.db.admin.query<{ id: string }>(`select id from webhook_deliveries`)).rows[0]!.id,
    ]);
  });

  it('stores an event once for all its endpoints, each sent the same payload; retention takes it once none names it', async () => {
    const first = await register(['contact.created']);
    const second = await register(['contact.created']);
    await insertContact(ctx.app, rep, { firstName: 'Ada' });
    await until(() => receiver.received.length === 2);
    const stored = async () =>
      (
        await ctx.db.admin.query<{ events: number; deliveries: number }>(
          `select (select count(*)::int from webhook_events) as events,
             (select count(*)::int from webhook_deliveries) as deliveries`,
        )
      ).rows[0];
    expect(await stored()).toEqual({ events: 1, deliveries: 2 });
    const [a, b] = receiver.received;
    expect(a!.body).toBe(b!.body);
    expect(a!.json).toMatchObject({ type: 'contact.created', data: { firstName: 'Ada' } });
    expect(a!.headers['webhook-id']).not.toBe(b!.headers['webhook-id']);
    await until(async () => (await log(second.endpoint.id))[0]?.status === 'delivered');
    // The first endpoint goes, with its delivery; the second's still names the event.
    expect((await send('DELETE', `/api/webhooks/${first.endpoint.id}`)).statusCode).toBe(204);
    expect(await stored()).toEqual({ events: 1, deliveries: 1 });
    // A month on (the event made by the database's clock, the retention run by the app's) the second goes too: the
    // event, named by nothing, is pruned with nothing else.
    await ctx.db.admin.query(`update webhook_events set event_at = $1::timestamptz - interval '31 days'`, [
      ctx.clock.now(),
    ]);
    expect((await send('DELETE', `/api/webhooks/${second.endpoint.id}`)).statusCode).toBe(204);
    expect(await pruneDeliveryLog(ctx.app.ctx)).toEqual({ deliveries: 0, events: 1 });
    expect(await stored()).toEqual({ events: 0, deliveries: 0 });
  });

  it('turns an endpoint off after 3 days of failures, and on again delivers what waited', async () => {
    const { endpoint } = await register(['contact.created']);
    await ctx.db.admin.query(
      `update webhook_endpoints set failing_since = $1::timestamptz - interval '3 days'`,
      [ctx.clock.now()],
    );
    receiver.answers.push(500);
    await insertContact(ctx.app, rep, { firstName: 'Ada' });
    await until(
      async () =>
        !(await send('GET', '/api/webhooks')).json<{ endpoints: WebhookEndpoint[] }>().endpoints[0]!.enabled,
    );
    const [off] = (await send('GET', '/api/webhooks')).json<{ endpoints: WebhookEndpoint[] }>().endpoints;
    expect(off!.disabledReason).toBe(
      'Every delivery failed for 3 days; the last: Answered 500: receiver broke',
    );
    const told = (await send('GET', '/api/notifications')).json<{
      notifications: { kind: string; title: string; body: string; link: string }[];
    }>().notifications;
    expect(told).toEqual([
      expect.objectContaining({
        kind: 'webhook-disabled',
        title: `Webhook turned off: Warehouse`,
        link: '/settings?tab=integrations',
      }),
    ]);
    expect(told[0]!.body).toContain('The events not yet delivered are kept');
    ctx.clock.advance(5_000);
    const on = await send('PATCH', `/api/webhooks/${endpoint.id}`, { enabled: true });
    expect(on.json<{ endpoint: WebhookEndpoint }>().endpoint).toMatchObject({
      enabled: true,
      disabledReason: null,
      failingSince: null,
    });
    await until(() => receiver.received.length === 2);
    await until(async () => (await log(endpoint.id))[0]!.status === 'delivered');
  });

  it('each instance finds deliveries with no job and queues them, once', async () => {
    const { endpoint } = await register(['contact.created']);
    // A delivery with no job, as the capture writes them (or as a job lost in a crash leaves them).
    await ctx.db.admin.query(
      `with event as (
         insert into webhook_events (user_id, event_at, payload)
         values ($2, now(), '{"type":"contact.created","data":{}}') returning id)
       insert into webhook_deliveries (id, endpoint_id, user_id, type, event_at, event_id, due_at)
       select 'msg_unqueued', $1, $2, 'contact.created', now(), id, to_timestamp(0) from event`,
      [endpoint.id, rep.userId],
    );
    await until(() => receiver.received.length === 1);
    expect(receiver.received[0]!.headers['webhook-id']).toBe('msg_unqueued');
    // Nothing left pending: a look now queues nothing, and nothing more arrives.
    await until(async () => (await log(endpoint.id))[0]!.status === 'delivered');
    expect(await sweepWebhookEndpoints(ctx.app.ctx)).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received).toHaveLength(1);
  });

  it('two instances on one database deliver every contact’s events once each, in order', async () => {
    const second = await buildSecondInstance(ctx, { webhookAllowedHosts: ['127.0.0.1'] });
    try {
      await register(['contact.created', 'contact.updated']);
      const through = (k: number) => (k % 2 === 0 ? ctx.app : second);
      // 20 contacts, each made on one instance and changed twice on the other one, all at once.
      await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const made = await through(i).inject({
            method: 'POST',
            url: '/api/contacts',
            headers: asCookie(rep),
            payload: { firstName: `Person${i}`, lastName: 'Twin', email: `p${i}@twins.example` },
          });
          expect(made.statusCode, made.body).toBe(201);
          const { id } = made.json<{ contact: { id: string } }>().contact;
          for (const company of ['First Co', 'Second Co'])
            expect(
              (
                await through(i + 1).inject({
                  method: 'PATCH',
                  url: `/api/contacts/${id}`,
                  headers: asCookie(rep),
                  payload: { company },
                })
              ).statusCode,
            ).toBe(200);
        }),
      );
      await until(() => receiver.received.length >= 60);
      await new Promise((r) => setTimeout(r, 500));
      expect(receiver.received).toHaveLength(60);
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(60);
      for (let i = 0; i < 20; i++)
        expect(
          receiver.received
            .filter((r) => r.json.data.firstName === `Person${i}`)
            .map((r) => `${r.json.type} ${String(r.json.data.company)}`),
        ).toEqual(['contact.created null', 'contact.updated First Co', 'contact.updated Second Co']);
    } finally {
      await second.close();
    }
  });

  it('refuses addresses inside the network and more than ten endpoints, and hides others’ endpoints', async () => {
    for (const url of ['https://10.0.0.1/hook', 'https://169.254.169.254/latest', 'ftp://example.com/x'])
      expect(
        (await send('POST', '/api/webhooks', { url, events: ['contact.created'] })).statusCode,
        url,
      ).toBe(400);
    expect((await send('POST', '/api/webhooks', { url: receiver.url, events: [] })).statusCode).toBe(400);
    expect(
      (await send('POST', '/api/webhooks', { url: receiver.url, events: ['sms.sent'] })).statusCode,
    ).toBe(400);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        send('POST', '/api/webhooks', { url: receiver.url, events: ['call.ended'] }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(10);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(2);
    const other = await createAccount(ctx, 'user');
    const [first] = (await send('GET', '/api/webhooks')).json<{ endpoints: WebhookEndpoint[] }>().endpoints;
    expect((await send('GET', `/api/webhooks/${first!.id}/secret`, undefined, other)).statusCode).toBe(404);
    expect((await send('DELETE', `/api/webhooks/${first!.id}`, undefined, other)).statusCode).toBe(404);
    expect((await send('GET', '/api/webhooks', undefined, other)).json()).toEqual({ endpoints: [] });
  });
});
