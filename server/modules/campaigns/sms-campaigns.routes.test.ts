import twilio from 'twilio';
import { afterEach, describe, expect, it } from 'vitest';
import { CAMPAIGN_MESSAGES } from '#domain/campaigns/campaign.schema.ts';
import { SMS_REPLIES } from '#domain/sms/sms-keywords.ts';
import {
  SMS_MESSAGES,
  SMS_SKIP_REASONS,
  SMS_UNCONFIRMED_REASON,
} from '#domain/campaigns/sms-campaign.schema.ts';
import { insertContact } from '../../test/contact-factory.ts';
import { FAKE_AUTH_TOKEN, startFakeTwilio, type FakeTwilio } from '../../test/fake-twilio.ts';
import { createSmsKit } from '../../test/sms-test-kit.ts';
import { TEST_PUBLIC_URL } from '../../test/test-constants.ts';
import { createAccount } from '../../test/test-app.ts';
import { createTwilioTestApp } from '../../test/twilio-test-app.ts';

const kit = createSmsKit();
const { onSimulator, call, create, settled, recipients, accepted, until, inbound, optOuts } = kit;
let fake: FakeTwilio | null = null;
afterEach(async () => {
  await kit.close();
  await fake?.close();
  fake = null;
});

describe('SMS campaigns on the simulator', () => {
  it("refuses a campaign without a name, message or contacts in the spec's words; another user's is not found", async () => {
    await onSimulator();
    const ann = await insertContact(kit.ctx.app, kit.rep, { phone: '5550100017' });
    const noName = await create([ann.id], { name: ' ' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().issues[0].message).toBe(SMS_MESSAGES.nameRequired.description);
    expect((await create([ann.id], { message: '  ' })).json().issues[0].message).toBe(
      SMS_MESSAGES.messageRequired,
    );
    expect((await create([ann.id], { message: 'x'.repeat(1601) })).statusCode).toBe(400);
    const stranger = await createAccount(kit.ctx, 'user');
    const theirs = await insertContact(kit.ctx.app, stranger, { phone: '5550100027' });
    expect((await create([theirs.id])).json().message).toBe(CAMPAIGN_MESSAGES.contactsRequired.description);
    expect((await kit.ctx.db.admin.query('select count(*)::int as n from sms_campaigns')).rows[0].n).toBe(0);

    const made = await create([ann.id]);
    expect(made.statusCode).toBe(201);
    expect(made.json().campaign).toMatchObject({ status: 'draft', counts: { total: 1, queued: 1 } });
    const id = made.json().campaign.id;
    for (const [method, url] of [
      ['GET', `/api/sms-campaigns/${id}`],
      ['POST', `/api/sms-campaigns/${id}/send`],
      ['DELETE', `/api/sms-campaigns/${id}`],
      ['GET', `/api/sms-campaigns/${id}/recipients`],
    ] as const)
      expect((await call(method, url, method === 'POST' ? {} : undefined, stranger)).statusCode).toBe(404);
    // Edits while a draft, all or nothing.
    const bo = await insertContact(kit.ctx.app, kit.rep, { phone: '5550100037' });
    const saved = await call('PUT', `/api/sms-campaigns/${id}`, {
      name: 'Open house 2',
      message: 'New text',
      add: { ids: [bo.id] },
      remove: [ann.id],
    });
    expect(saved.json().campaign).toMatchObject({
      name: 'Open house 2',
      message: 'New text',
      counts: { total: 1 },
    });
    expect(
      (await call('PUT', `/api/sms-campaigns/${id}`, { name: 'x', message: 'y', remove: [bo.id] }))
        .statusCode,
    ).toBe(400);
    expect((await call('GET', `/api/sms-campaigns/${id}`)).json().campaign.name).toBe('Open house 2');
  });

  it('messages each number once, merged, skips who cannot be messaged, and follows delivery reports', async () => {
    await onSimulator();
    const ann = await insertContact(kit.ctx.app, kit.rep, { firstName: 'Ann', phone: '(555) 010-0017' });
    const bo = await insertContact(kit.ctx.app, kit.rep, { firstName: 'Bo', phone: '5550100012' });
    const cy = await insertContact(kit.ctx.app, kit.rep, { firstName: 'Cy', phone: null });
    const di = await insertContact(kit.ctx.app, kit.rep, { firstName: 'Di', phone: '5550100047' });
    expect(
      (await call('POST', '/api/dispositions', { contactId: di.id, disposition: 'do-not-call' })).statusCode,
    ).toBe(201);
    const id = (await create([ann.id, bo.id, cy.id, di.id])).json().campaign.id;
    expect((await call('POST', `/api/sms-campaigns/${id}/send`)).json().campaign.status).toBe('sending');
    expect(await settled(id)).toMatchObject({ status: 'sent', counts: { total: 4, sent: 2, skipped: 2 } });
    expect(accepted().map((m) => [m.to, m.body])).toEqual([
      ['+15550100017', 'Hi Ann, open house on Friday!'],
      ['+15550100012', 'Hi Bo, open house on Friday!'],
    ]);
    // Delivery reports arrive by the signed webhook: Ann's delivered, Bo's handset unreachable.
    await until(async () => (await recipients(id)).every((r) => r.state !== 'sent' || r.delivery !== 'sent'));
    await until(
      async () =>
        (await recipients(id)).filter((r) => r.delivery === 'delivered' || r.delivery === 'undelivered')
          .length === 2,
    );
    const rows = await recipients(id);
    expect(rows).toEqual([
      expect.objectContaining({
        contactId: ann.id,
        state: 'sent',
        delivery: 'delivered',
        deliveryError: null,
      }),
      expect.objectContaining({
        contactId: bo.id,
        state: 'sent',
        delivery: 'undelivered',
        deliveryError: 'Error 30003',
      }),
      expect.objectContaining({ contactId: cy.id, state: 'skipped', reason: SMS_SKIP_REASONS.noPhone }),
      expect.objectContaining({
        contactId: di.id,
        state: 'skipped',
        reason: expect.stringMatching(/^On your do-not-call list since /),
      }),
    ]);
    expect((await call('GET', `/api/sms-campaigns/${id}`)).json().campaign.delivered).toBe(1);
    expect((await call('POST', `/api/sms-campaigns/${id}/send`)).statusCode).toBe(409);
  });

  it('STOP (any case, spaces) opts the number out of every later message; START takes it back; HELP is answered', async () => {
    await onSimulator();
    const ann = await insertContact(kit.ctx.app, kit.rep, { firstName: 'Ann', phone: '5550100017' });
    const first = (await create([ann.id])).json().campaign.id;
    await call('POST', `/api/sms-campaigns/${first}/send`);
    await settled(first);
    const reply = (text: string) =>
      call('POST', `/api/sms-campaigns/${first}/recipients/${ann.id}/simulate-reply`, { text });

    expect((await reply('HELP')).json()).toEqual({ reply: SMS_REPLIES.help });
    expect(await optOuts()).toEqual([]);
    expect((await reply('  stop ')).json()).toEqual({ reply: null });
    expect(await optOuts()).toEqual([{ phone: '+15550100017' }]);
    expect((await recipients(first))[0]).toMatchObject({ reply: 'stop' });
    expect((await call('GET', `/api/contacts/${ann.id}/calling`)).json().smsOptedOut).toBe(true);

    const second = (await create([ann.id], { name: 'Again' })).json().campaign.id;
    await call('POST', `/api/sms-campaigns/${second}/send`);
    expect(await settled(second)).toMatchObject({ counts: { skipped: 1, sent: 0 } });
    expect((await recipients(second))[0]).toMatchObject({
      reason: expect.stringMatching(/^Texted STOP on /),
    });
    expect(accepted()).toHaveLength(1);

    await reply('Start');
    expect(await optOuts()).toEqual([]);
    const third = (await create([ann.id], { name: 'Third' })).json().campaign.id;
    await call('POST', `/api/sms-campaigns/${third}/send`);
    expect(await settled(third)).toMatchObject({ counts: { sent: 1 } });
    expect(accepted()).toHaveLength(2);
    for (const word of ['STOPALL', 'unsubscribe', 'Cancel', 'END', 'quit']) {
      await inbound({
        MessageSid: `SM${word}`,
        From: '+15550100099',
        To: '+15550100000',
        Body: ` ${word}  `,
      });
      expect(await optOuts()).toContainEqual({ phone: '+15550100099' });
      await inbound({ MessageSid: `SMun${word}`, From: '+15550100099', To: '+15550100000', Body: 'UNSTOP' });
      expect(await optOuts()).not.toContainEqual({ phone: '+15550100099' });
    }
  });

  it('a STOP arriving mid-campaign stops the rest for that number; a forged webhook is refused and writes nothing', async () => {
    await onSimulator();
    const bo = await insertContact(kit.ctx.app, kit.rep, { firstName: 'Bo', phone: '5550100037' });
    const ann = await insertContact(kit.ctx.app, kit.rep, { firstName: 'Ann', phone: '5550100017' });
    const id = (await create([bo.id, ann.id], { perMinute: 1 })).json().campaign.id;
    await call('POST', `/api/sms-campaigns/${id}/send`);
    await until(async () => accepted().length === 1);

    const stop = { MessageSid: 'SMforged', From: '+15550100017', To: '+15550100000', Body: 'STOP' };
    const forged = await inbound(stop, 'another-secret-entirely-and-long-enough');
    expect(forged.statusCode).toBe(403);
    const unsigned = await kit.ctx.app.inject({
      method: 'POST',
      url: '/api/telephony/simulator/sms-status',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'MessageSid=SMx&MessageStatus=delivered',
    });
    expect(unsigned.statusCode).toBe(403);
    expect(await optOuts()).toEqual([]);

    expect((await inbound(stop)).statusCode).toBe(200);
    expect((await recipients(id))[1]).toMatchObject({
      state: 'skipped',
      reason: SMS_SKIP_REASONS.optedOut,
    });
    await call('POST', `/api/sms-campaigns/${id}/resume`);
    expect(accepted().map((m) => m.to)).toEqual(['+15550100037']);
  });

  it('fifty Send presses at once start one send, and fifty STOP replies at once leave one opt-out, without an error', async () => {
    await onSimulator();
    const people = await Promise.all(
      ['5550100017', '5550100027', '5550100037'].map((phone) =>
        insertContact(kit.ctx.app, kit.rep, { phone }),
      ),
    );
    const id = (await create(people.map((p) => p.id))).json().campaign.id;
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        call('POST', `/api/sms-campaigns/${id}/send`).then((r) => r.statusCode),
      ),
    );
    expect(answers.filter((s) => s === 200)).toHaveLength(1);
    expect(answers.filter((s) => s === 409)).toHaveLength(49);
    expect(await settled(id)).toMatchObject({ status: 'sent', counts: { sent: 3 } });
    expect(
      accepted()
        .map((m) => m.to)
        .sort(),
    ).toEqual(['+15550100017', '+15550100027', '+15550100037']);

    const stops = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        inbound({ MessageSid: `SMstop${i}`, From: '+15550100017', To: '+15550100000', Body: 'STOP' }).then(
          (r) => r.statusCode,
        ),
      ),
    );
    expect(stops.every((s) => s === 200)).toBe(true);
    expect(await optOuts()).toEqual([{ phone: '+15550100017' }]);
  });

  it('never messages again a recipient a dead run left being handed over: it is marked unconfirmed', async () => {
    await onSimulator();
    const ann = await insertContact(kit.ctx.app, kit.rep, { phone: '5550100017' });
    const bo = await insertContact(kit.ctx.app, kit.rep, { phone: '5550100027' });
    const id = (await create([ann.id, bo.id])).json().campaign.id;
    await kit.ctx.db.admin.query(
      `update sms_campaign_recipients set state = 'sending', attempted_at = now() where contact_id = $1`,
      [ann.id],
    );
    await call('POST', `/api/sms-campaigns/${id}/send`);
    expect(await settled(id)).toMatchObject({ status: 'sent', counts: { sent: 1, unconfirmed: 1 } });
    expect(accepted().map((m) => m.to)).toEqual(['+15550100027']);
    expect((await recipients(id))[0]).toMatchObject({ state: 'unconfirmed', reason: SMS_UNCONFIRMED_REASON });
  });

  it("a provider's refusal fails that recipient with the provider's words", async () => {
    await onSimulator();
    const down = await insertContact(kit.ctx.app, kit.rep, { phone: '9995550100' });
    const id = (await create([down.id])).json().campaign.id;
    await call('POST', `/api/sms-campaigns/${id}/send`);
    // The simulator's 999… numbers are refused by the provider: that recipient fails with its words.
    expect(await settled(id)).toMatchObject({ counts: { failed: 1 } });
    expect((await recipients(id))[0]!.reason).toMatch(/not verified/);
  });
});

describe('SMS with Twilio (Messaging API against a local fake, signed webhooks)', () => {
  const webhook = (url: string, fields: Record<string, string>, token = FAKE_AUTH_TOKEN) =>
    kit.ctx.app.inject({
      method: 'POST',
      url,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilio.getExpectedTwilioSignature(token, `${TEST_PUBLIC_URL}${url}`, fields),
      },
      payload: new URLSearchParams(fields).toString(),
    });

  it('sends through Messages.json with a status callback; delivery and STOP arrive by signed webhooks', async () => {
    fake = await startFakeTwilio();
    await kit.use(await createTwilioTestApp(fake));
    const ann = await insertContact(kit.ctx.app, kit.rep, { firstName: 'Ann', phone: '5550100017' });
    const id = (await create([ann.id])).json().campaign.id;
    await call('POST', `/api/sms-campaigns/${id}/send`);
    expect(await settled(id)).toMatchObject({ counts: { sent: 1 } });
    expect(fake.messages).toHaveLength(1);
    const sent = fake.messages[0]!;
    expect(sent).toMatchObject({
      to: '+15550100017',
      from: '+15005550006',
      body: 'Hi Ann, open house on Friday!',
    });
    const statusPath = new URL(sent.statusCallback!).pathname + new URL(sent.statusCallback!).search;
    expect(statusPath).toMatch(/^\/api\/telephony\/twilio\/sms-status\?ref=[0-9a-f-]{36}$/);

    expect(
      (await webhook(statusPath, { MessageSid: sent.sid, MessageStatus: 'delivered' }, 'wrong-token'))
        .statusCode,
    ).toBe(403);
    expect((await recipients(id))[0]!.delivery).toBe('queued');
    await webhook(statusPath, { MessageSid: sent.sid, MessageStatus: 'delivered' });
    // A late 'sent' never undoes 'delivered'.
    await webhook(statusPath, { MessageSid: sent.sid, MessageStatus: 'sent' });
    expect((await recipients(id))[0]!.delivery).toBe('delivered');

    const stop = { MessageSid: 'SM1', From: '+15550100017', To: '+15005550006', Body: 'STOP' };
    expect((await webhook('/api/telephony/twilio/sms-inbound', stop, 'wrong-token')).statusCode).toBe(403);
    expect(await optOuts()).toEqual([]);
    const help = await webhook('/api/telephony/twilio/sms-inbound', {
      ...stop,
      MessageSid: 'SM2',
      Body: 'help',
    });
    expect(help.headers['content-type']).toMatch(/text\/xml/);
    expect(help.body).toContain(`<Message>${SMS_REPLIES.help}</Message>`);
    const stopped = await webhook('/api/telephony/twilio/sms-inbound', stop);
    expect(stopped.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    expect(await optOuts()).toEqual([{ phone: '+15550100017' }]);
    // The simulator's reply button is not for a real provider.
    expect(
      (await call('POST', `/api/sms-campaigns/${id}/recipients/${ann.id}/simulate-reply`, { text: 'hi' }))
        .statusCode,
    ).toBe(404);
  });
});

describe('the length of a merged text', () => {
  it('checks the length once merge fields are filled in: a text that grows past 1,600 characters is skipped, not sent', async () => {
    await onSimulator();
    const long = await insertContact(kit.ctx.app, kit.rep, {
      firstName: 'Long',
      company: 'C'.repeat(200),
      phone: '5550100017',
    });
    const short = await insertContact(kit.ctx.app, kit.rep, {
      firstName: 'Short',
      company: 'Acme',
      phone: '5550100027',
    });
    const message = '{{company}}'.repeat(145);
    expect(message).toHaveLength(1595);
    const id = (await create([long.id, short.id], { message })).json().campaign.id;
    await call('POST', `/api/sms-campaigns/${id}/send`);
    expect(await settled(id)).toMatchObject({ status: 'sent', counts: { sent: 1, skipped: 1 } });
    expect((await recipients(id))[0]).toMatchObject({ state: 'skipped', reason: SMS_SKIP_REASONS.tooLong });
    expect(accepted().map((m) => [m.to, m.body.length])).toEqual([['+15550100027', 4 * 145]]);
  });
});
