import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookEndpoint } from '#domain/webhooks/webhook-endpoint.schema.ts';
import { insertContact } from '../../test/contact-factory.ts';
import { openBrowserOf } from '../../test/calls-test-kit.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/fake-webhook-receiver.ts';
import { signSimulatorFields } from '../../telephony/simulator.ts';
import {
  allowUnknownLocalTime,
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';

/*
 * The webhook events that follow from texts, opt-outs, campaigns and voicemail (decision 035, migration 0043),
 * each made the way a user or a provider makes it, through the real routes, simulator, triggers and job queue, and
 * received by a local receiver.
 */

let ctx: TestContext;
let rep: Session;
let receiver: WebhookReceiver;
beforeEach(async () => {
  receiver = await startWebhookReceiver();
  ctx = await createTestApp({
    webhookAllowedHosts: ['127.0.0.1'],
    telephony: { provider: 'simulator', timeScale: 0.02, timeoutMs: 300 },
  });
  rep = await createAccount(ctx, 'user');
  await allowUnknownLocalTime(ctx.app, rep);
});
afterEach(async () => {
  await ctx.close();
  await receiver.close();
});

const send = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, who = rep) =>
  ctx.app.inject({ method, url, headers: asCookie(who), ...(payload && { payload }) });
const register = async (events: string[], who = rep) => {
  const made = await send('POST', '/api/webhooks', { url: receiver.url, events }, who);
  expect(made.statusCode, made.body).toBe(201);
  return made.json<{ endpoint: WebhookEndpoint }>().endpoint;
};
/** The events received so far of `type`, their data; waits until there are `count` of them. */
const received = async (type: string, count = 1) => {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = receiver.received.filter((r) => r.json.type === type).map((r) => r.json.data);
    if (found.length >= count) return found;
    if (Date.now() > deadline)
      throw new Error(`no ${type}: got ${receiver.received.map((r) => r.json.type).join(', ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};
const simulatorKey = createHmac('sha256', 'test-session-secret-that-is-long-enough-1234')
  .update('telephony-simulator')
  .digest('base64url');
/** A text from `From` to our number `To`, posted as the provider posts it (no user: a real message). */
const textIn = (fields: Record<string, string>) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/telephony/simulator/sms-inbound',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-simulator-signature': signSimulatorFields(simulatorKey, fields),
    },
    payload: new URLSearchParams(fields).toString(),
  });

describe('webhook events from texts, opt-outs, campaigns and voicemail', () => {
  it('an SMS campaign finishing, its reply coming in, and a STOP: campaign.finished, sms.received, opt-out.recorded', async () => {
    await register(['campaign.finished', 'sms.received', 'opt-out.recorded']);
    const ann = await insertContact(ctx.app, rep, { firstName: 'Ann', phone: '555-010-0117' });
    const made = await send('POST', '/api/sms-campaigns', {
      name: 'Open house',
      message: 'Hi {{firstName}}',
      perMinute: 3000,
      selection: { ids: [ann.id] },
    });
    const campaignId = made.json<{ campaign: { id: string } }>().campaign.id;
    expect((await send('POST', `/api/sms-campaigns/${campaignId}/send`)).statusCode).toBe(200);
    const [finished] = await received('campaign.finished');
    expect(finished).toMatchObject({
      id: campaignId,
      kind: 'sms',
      name: 'Open house',
      recipients: { sent: 1 },
    });

    const stop = await send('POST', `/api/sms-campaigns/${campaignId}/recipients/${ann.id}/simulate-reply`, {
      text: 'Stop',
    });
    expect(stop.statusCode, stop.body).toBe(200);
    const [text] = await received('sms.received');
    expect(text).toMatchObject({ from: '+15550100117', body: 'Stop', keyword: 'stop', contactId: ann.id });
    const [optOut] = await received('opt-out.recorded');
    expect(optOut).toMatchObject({ channel: 'text', contactId: ann.id, number: '+15550100117' });
    // The reply and the opt-out are about Ann: they arrive in the order they happened.
    const order = receiver.received.map((r) => r.json.type);
    expect(order.indexOf('sms.received')).toBeLessThan(order.indexOf('opt-out.recorded'));
  });

  it('a real text to a number goes to its owner only; a real STOP to everyone who has that number', async () => {
    await register(['sms.received', 'opt-out.recorded']);
    const other = await createAccount(ctx, 'user');
    await register(['sms.received', 'opt-out.recorded'], other);
    const stranger = await createAccount(ctx, 'user');
    await register(['sms.received', 'opt-out.recorded'], stranger);
    expect((await send('POST', '/api/caller-ids', { number: '(303) 555-0101' })).statusCode).toBe(201);
    const mine = await insertContact(ctx.app, rep, { firstName: 'Bo', phone: '555-010-0118' });
    const theirs = await insertContact(ctx.app, other, { firstName: 'Bo', phone: '555-010-0118' });

    const from = { From: '+15550100118', To: '+13035550101' };
    expect((await textIn({ MessageSid: 'SMhello', ...from, Body: 'Call me at 5' })).statusCode).toBe(200);
    expect(await received('sms.received')).toEqual([
      expect.objectContaining({
        id: 'SMhello',
        body: 'Call me at 5',
        contactId: mine.id,
        to: '+13035550101',
      }),
    ]);
    expect((await textIn({ MessageSid: 'SMstop', ...from, Body: 'STOP' })).statusCode).toBe(200);
    const optOuts = await received('opt-out.recorded', 2);
    expect(optOuts.map((o) => o.contactId).sort()).toEqual([mine.id, theirs.id].sort());
    // The same message delivered again by the provider makes no second event.
    expect((await textIn({ MessageSid: 'SMstop', ...from, Body: 'STOP' })).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received.filter((r) => r.json.type === 'opt-out.recorded')).toHaveLength(2);
    expect(receiver.received.filter((r) => r.json.type === 'sms.received')).toHaveLength(2);
  });

  it('a do-not-call outcome and an unsubscribe from a campaign e-mail are opt-outs; an e-mail campaign finishes', async () => {
    await register(['opt-out.recorded', 'campaign.finished']);
    const cy = await insertContact(ctx.app, rep, { firstName: 'Cy', phone: '(720) 555-0119' });
    const dnc = await send('POST', '/api/dispositions', { contactId: cy.id, disposition: 'do-not-call' });
    expect(dnc.statusCode, dnc.body).toBe(201);
    const [byPhone] = await received('opt-out.recorded');
    expect(byPhone).toMatchObject({
      channel: 'call',
      contactId: cy.id,
      number: '+17205550119',
      code: 'do-not-call',
    });

    const di = await insertContact(ctx.app, rep, { firstName: 'Di', email: 'Di@Buyer.example' });
    const made = await send('POST', '/api/email-campaigns', {
      name: 'Spring offer',
      subject: 'Hello',
      body: 'Our offer.',
      perMinute: 600,
      selection: { ids: [di.id] },
    });
    const campaignId = made.json<{ campaign: { id: string } }>().campaign.id;
    expect((await send('POST', `/api/email-campaigns/${campaignId}/send`)).statusCode).toBe(200);
    const [finished] = await received('campaign.finished');
    expect(finished).toMatchObject({ id: campaignId, kind: 'email', recipients: { sent: 1 } });
    const { rows } = await ctx.db.admin.query<{ token: string }>(
      'select unsubscribe_token as token from email_campaign_recipients where campaign_id = $1',
      [campaignId],
    );
    const clicked = await ctx.app.inject({ method: 'POST', url: `/unsubscribe/${rows[0]!.token}` });
    expect(clicked.statusCode).toBe(200);
    const byEmail = (await received('opt-out.recorded', 2))[1];
    expect(byEmail).toMatchObject({
      channel: 'email',
      contactId: di.id,
      email: 'di@buyer.example',
      campaignId,
    });
  });

  it('a voicemail left on a missed call: voicemail.received with the path of its audio', async () => {
    await register(['voicemail.received']);
    await openBrowserOf(ctx.app, rep.userId);
    expect(
      (await send('POST', '/api/caller-ids', { number: '(303) 555-0101', isDefault: true })).statusCode,
    ).toBe(201);
    const ed = await insertContact(ctx.app, rep, { firstName: 'Ed', phone: '(720) 555-0177' });
    expect(
      (await send('POST', '/api/calls/simulate-incoming', { from: '7205550177', voicemailSeconds: 3 }))
        .statusCode,
    ).toBe(202);
    const [voicemail] = await received('voicemail.received');
    expect(voicemail).toMatchObject({ contactId: ed.id, from: '+17205550177', to: '+13035550101' });
    expect(voicemail!.durationSeconds).toBeGreaterThan(0);
    // The receiving script fetches the audio with the user's API key.
    const made = await send('POST', '/api/api-keys', { name: 'Voicemail sync', scope: 'read' });
    expect(made.statusCode, made.body).toBe(201);
    const audio = await ctx.app.inject({
      method: 'GET',
      url: String(voicemail!.audioPath),
      headers: { authorization: `Bearer ${made.json<{ secret: string }>().secret}` },
    });
    expect(audio.statusCode).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/wav');
  });
});
