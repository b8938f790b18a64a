import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { placeCallAs } from '../../test/calls-test-kit.ts';
import { insertContact } from '../../test/contact-factory.ts';
import { importFile } from '../../test/import-files.ts';
import { createSmsKit } from '../../test/sms-test-kit.ts';
import {
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';

// 14:42 UTC on 25 November 2026: 7:42 am in Denver (MST), 9:42 am in New York.
const DENVER_742 = new Date('2026-11-25T14:42:00Z');
const DENVER_800 = new Date('2026-11-25T15:00:00Z');
const DENVER = '+13032961237';
const NEW_YORK = '+12125550127';
const MIAMI = '+13055550127';
const DENVER_SENTENCE = 'Not now: it is 7:42 am in Denver (calling hours 8:00–21:00)';

let ctx: TestContext;
let rep: Session;

const send = (
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
  who = rep,
) => ctx.app.inject({ method, url, headers: asCookie(who), ...(payload !== undefined && { payload }) });
const callCount = async () =>
  (await ctx.db.admin.query<{ n: number }>('select count(*)::int as n from calls')).rows[0]!.n;

describe('the consent gate on calls', () => {
  beforeEach(async () => {
    ctx = await createTestApp();
    rep = await createAccount(ctx, 'user');
  });
  afterEach(() => ctx.close());

  it('refuses a click-to-call to a Denver contact at 7:42 am Denver time with that sentence, and calls at 8:00', async () => {
    const ann = await insertContact(ctx.app, rep, { firstName: 'Ann', phone: DENVER });
    ctx.clock.set(DENVER_742);
    const refused = await placeCallAs(ctx.app, rep, { contactId: ann.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ code: 'CONSENT_REFUSED', message: DENVER_SENTENCE });
    expect(await callCount()).toBe(0);

    const page = (await send('GET', `/api/contacts/${ann.id}/consent`)).json();
    expect(page).toMatchObject({
      zones: ['America/Denver'],
      zoneSource: 'number',
      state: 'CO',
      phoneValid: true,
      localTime: 'Local time 7:42 am, America/Denver',
      call: {
        allowed: false,
        code: 'outside-hours',
        reason: DENVER_SENTENCE,
        retryAt: DENVER_800.toISOString(),
      },
      text: { allowed: false, code: 'outside-hours' },
      campaignEmail: { allowed: true },
      prerecorded: { allowed: false, code: 'outside-hours' },
    });

    ctx.clock.set(DENVER_800);
    expect((await placeCallAs(ctx.app, rep, { contactId: ann.id })).statusCode).toBe(201);
  });

  it('applies the same hours to a number typed into the dialer', async () => {
    ctx.clock.set(DENVER_742);
    const refused = await placeCallAs(ctx.app, rep, { to: '(303) 296-1237' });
    expect(refused.json()).toEqual({ code: 'CONSENT_REFUSED', message: DENVER_SENTENCE });
  });

  it('takes the time zone and state set on the contact over the number’s', async () => {
    const ann = await insertContact(ctx.app, rep, { firstName: 'Ann', phone: DENVER });
    ctx.clock.set(DENVER_742);
    const changed = await send('PATCH', `/api/contacts/${ann.id}`, {
      timeZone: 'America/New_York',
      state: 'fl',
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().contact).toMatchObject({ timeZone: 'America/New_York', state: 'FL' });
    expect((await send('GET', `/api/contacts/${ann.id}/consent`)).json()).toMatchObject({
      zoneSource: 'contact',
      state: 'FL',
      localTime: 'Local time 9:42 am, America/New_York',
      call: { allowed: true },
    });
    const bad = await send('PATCH', `/api/contacts/${ann.id}`, {
      timeZone: 'Mars/Olympus',
      state: 'Ontario',
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .issues.map((i: { path: string }) => i.path)
        .sort(),
    ).toEqual(['body.state', 'body.timeZone']);
  });

  it('allows a Florida contact three calls in 24 hours and refuses the fourth, saying so', async () => {
    const bo = await insertContact(ctx.app, rep, { firstName: 'Bo', phone: MIAMI });
    ctx.clock.set(new Date('2026-11-25T17:00:00Z'));
    for (const hoursAgo of [20, 10, 1])
      await ctx.db.admin.query(
        `insert into calls (user_id, contact_id, request_id, provider, from_number, to_number, status, started_at)
         values ($1, $2, $3, 'simulator', '+15550100000', $4, 'completed', $5)`,
        [
          rep.userId,
          bo.id,
          randomUUID().replaceAll('-', '').slice(0, 8),
          MIAMI,
          new Date(Date.parse('2026-11-25T17:00:00Z') - hoursAgo * 3_600_000),
        ],
      );
    const refused = await placeCallAs(ctx.app, rep, { contactId: bo.id });
    expect(refused.json()).toEqual({
      code: 'CONSENT_REFUSED',
      message: '3 calls in the last 24 h (Florida limit)',
    });
    // Four hours later the oldest of the three is more than a day old.
    ctx.clock.set(new Date('2026-11-25T21:00:01Z'));
    expect((await placeCallAs(ctx.app, rep, { contactId: bo.id })).statusCode).toBe(201);
  });

  it('blocks each channel only by what names it: do-not-call calls and texts, STOP texts, unsubscribe campaign e-mail', async () => {
    ctx.clock.set(new Date('2026-11-25T18:00:00Z'));
    const dnc = await insertContact(ctx.app, rep, {
      firstName: 'Dee',
      phone: NEW_YORK,
      email: 'dee@example.com',
    });
    expect(
      (await send('POST', '/api/dispositions', { contactId: dnc.id, disposition: 'do-not-call' })).statusCode,
    ).toBe(201);
    const stop = await insertContact(ctx.app, rep, {
      firstName: 'Stu',
      phone: DENVER,
      email: 'stu@example.com',
    });
    await ctx.db.admin.query(
      `insert into sms_opt_outs (phone, keyword, user_id, created_at) values ($1, 'STOP', $2, $3)`,
      [DENVER, rep.userId, new Date('2026-11-02T15:00:00Z')],
    );
    const unsub = await insertContact(ctx.app, rep, {
      firstName: 'Una',
      phone: MIAMI,
      email: 'una@example.com',
    });
    await ctx.db.admin.query(
      `insert into email_unsubscribes (user_id, email, created_at) values ($1, 'una@example.com', $2)`,
      [rep.userId, new Date('2026-11-02T15:00:00Z')],
    );
    const verdicts = async (id: string) => {
      const c = (await send('GET', `/api/contacts/${id}/consent`)).json();
      return [c.call, c.text, c.campaignEmail].map((a: { allowed: boolean; reason: string | null }) =>
        a.allowed ? 'allowed' : a.reason,
      );
    };
    expect(await verdicts(dnc.id)).toEqual([
      expect.stringMatching(/^On your do-not-call list since \d\d\/\d\d\/2026$/),
      expect.stringMatching(/^On your do-not-call list since /),
      'allowed',
    ]);
    expect(await verdicts(stop.id)).toEqual(['allowed', 'Texted STOP on 11/02/2026', 'allowed']);
    expect(await verdicts(unsub.id)).toEqual([
      'allowed',
      'allowed',
      'Unsubscribed from your e-mails on 11/02/2026',
    ]);
    // The do-not-call refusal keeps its own code and words.
    expect((await placeCallAs(ctx.app, rep, { contactId: dnc.id })).json().code).toBe('DO_NOT_CALL');
  });

  it('refuses contacts of unknown local time unless the user allows them, and lets the user narrow the calling hours, never widen them', async () => {
    expect((await send('GET', '/api/consent/settings')).json()).toEqual({
      window: null,
      unknownLocalTime: 'block',
    });
    const fictional = await insertContact(ctx.app, rep, { firstName: 'Fi', phone: '(555) 010-0017' });
    const ny = await insertContact(ctx.app, rep, { firstName: 'Ny', phone: NEW_YORK });
    ctx.clock.set(DENVER_742); // 9:42 am in New York
    // By default nobody is called whose local time is unknown.
    expect((await placeCallAs(ctx.app, rep, { contactId: fictional.id })).json()).toEqual({
      code: 'CONSENT_REFUSED',
      message: 'Not a valid phone number: +15550100017',
    });
    const tollFree = await insertContact(ctx.app, rep, { firstName: 'Tol', phone: '(800) 555-0123' });
    expect((await placeCallAs(ctx.app, rep, { contactId: tollFree.id })).json()).toEqual({
      code: 'CONSENT_REFUSED',
      message: 'Not now: this contact’s local time is unknown (set their time zone on the contact)',
    });
    expect(
      (await send('PUT', '/api/consent/settings', { window: null, unknownLocalTime: 'allow' })).statusCode,
    ).toBe(200);
    expect((await send('GET', `/api/contacts/${fictional.id}/consent`)).json()).toMatchObject({
      phoneValid: false,
      localTime: null,
      call: { allowed: true, reason: 'Local time unknown: no time zone from the number or the contact' },
    });
    const saved = await send('PUT', '/api/consent/settings', {
      window: { from: 600, to: 1020 },
      unknownLocalTime: 'block',
    });
    expect(saved.statusCode).toBe(200);
    expect((await placeCallAs(ctx.app, rep, { contactId: ny.id })).json()).toEqual({
      code: 'CONSENT_REFUSED',
      message: 'Not now: it is 9:42 am in New York (calling hours 10:00–17:00)',
    });
    expect((await placeCallAs(ctx.app, rep, { contactId: fictional.id })).json()).toEqual({
      code: 'CONSENT_REFUSED',
      message: 'Not a valid phone number: +15550100017',
    });
    expect(
      (
        await send('PUT', '/api/consent/settings', {
          window: { from: 900, to: 600 },
          unknownLocalTime: 'allow',
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await send('PUT', '/api/consent/settings', {
          window: { from: 0, to: 2000 },
          unknownLocalTime: 'allow',
        })
      ).statusCode,
    ).toBe(400);
  });

  it('keeps every decision and opt-out change in the contact’s consent record, and exports it as CSV', async () => {
    const ann = await insertContact(ctx.app, rep, { firstName: 'Ann', lastName: 'Record', phone: DENVER });
    ctx.clock.set(DENVER_742);
    expect((await placeCallAs(ctx.app, rep, { contactId: ann.id })).statusCode).toBe(409);
    ctx.clock.set(DENVER_800);
    expect((await placeCallAs(ctx.app, rep, { contactId: ann.id })).statusCode).toBe(201);
    ctx.clock.set(new Date('2026-11-25T16:00:00Z'));
    expect(
      (await send('POST', '/api/dispositions', { contactId: ann.id, disposition: 'do-not-call' })).statusCode,
    ).toBe(201);
    ctx.clock.set(new Date('2026-11-25T17:00:00Z'));
    expect((await send('DELETE', `/api/contacts/${ann.id}/do-not-call`)).statusCode).toBe(204);

    const record = (await send('GET', `/api/contacts/${ann.id}/consent/record`)).json();
    expect(record.standing).toEqual({
      doNotCallSince: null,
      textOptOutSince: null,
      unsubscribedSince: null,
      expressConsent: null,
    });
    expect(
      record.entries.map((e: { at: string; outcome: string; reason: string }) => [e.at, e.outcome, e.reason]),
    ).toEqual([
      ['2026-11-25T17:00:00.000Z', 'opted-in', 'Removed from your do-not-call list'],
      ['2026-11-25T16:00:00.000Z', 'opted-out', 'Asked not to be called: put on your do-not-call list'],
      ['2026-11-25T15:00:00.000Z', 'allowed', null],
      ['2026-11-25T14:42:00.000Z', 'refused', DENVER_SENTENCE],
    ]);
    expect(record.entries[3].facts).toMatchObject({ number: DENVER, zones: ['America/Denver'], state: 'CO' });

    const csv = await send('GET', `/api/contacts/${ann.id}/consent/record.csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(
      'attachment; filename="consent_record_Ann_Record_2026-11-25.csv"',
    );
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(5);
    expect(lines[4]).toContain(
      `2026-11-25T14:42:00.000Z,Call,Refused,${DENVER_SENTENCE},'${DENVER},America/Denver,CO,`,
    );
  });

  it('express consent lifts the federal hours, never do-not-call, and is in the record when given and withdrawn', async () => {
    const ann = await insertContact(ctx.app, rep, { firstName: 'Ann', phone: DENVER });
    const bo = await insertContact(ctx.app, rep, { firstName: 'Bo', phone: MIAMI });
    ctx.clock.set(DENVER_742);
    const consent = { givenOn: '2026-11-20', source: 'Web form: demo request' };

    const given = await send('POST', `/api/contacts/${ann.id}/consent/express`, consent);
    expect(given.statusCode).toBe(201);
    expect(given.json()).toEqual({ ...consent, recordedAt: DENVER_742.toISOString() });
    const twice = await send('POST', `/api/contacts/${ann.id}/consent/express`, consent);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(
      'Express consent is already recorded for this contact: withdraw it first',
    );

    const page = (await send('GET', `/api/contacts/${ann.id}/consent`)).json();
    expect(page.expressConsent).toEqual({ ...consent, recordedAt: DENVER_742.toISOString() });
    expect(page.call).toEqual({
      allowed: true,
      code: null,
      reason: 'Express consent given 11/20/2026 (Web form: demo request); federal calling hours do not apply',
      retryAt: null,
    });
    expect((await placeCallAs(ctx.app, rep, { contactId: ann.id })).statusCode).toBe(201);

    // Florida's own window stays: 7:42 am in Denver is 9:42 am in Miami, inside 8:00–20:00; 8:30 pm is not.
    expect((await send('POST', `/api/contacts/${bo.id}/consent/express`, consent)).statusCode).toBe(201);
    ctx.clock.set(new Date('2026-11-26T01:30:00Z'));
    expect((await placeCallAs(ctx.app, rep, { contactId: bo.id })).json()).toEqual({
      code: 'CONSENT_REFUSED',
      message: 'Not now: it is 8:30 pm in New York (calling hours 8:00–20:00)',
    });

    // Do-not-call wins over consent.
    ctx.clock.set(new Date('2026-11-26T05:00:00Z'));
    await send('POST', '/api/dispositions', { contactId: ann.id, disposition: 'do-not-call' });
    expect((await placeCallAs(ctx.app, rep, { contactId: ann.id })).json()).toMatchObject({
      code: 'DO_NOT_CALL',
      message: '+13032961237 is on your do-not-call list. Remove it there before calling.',
    });

    ctx.clock.set(new Date('2026-11-26T06:00:00Z'));
    expect((await send('DELETE', `/api/contacts/${ann.id}/consent/express`)).statusCode).toBe(204);
    const again = await send('DELETE', `/api/contacts/${ann.id}/consent/express`);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('No express consent stands for this contact');
    const record = (await send('GET', `/api/contacts/${ann.id}/consent/record`)).json();
    expect(record.standing.expressConsent).toBeNull();
    const reasons = record.entries.map((e: { reason: string }) => e.reason);
    expect(reasons).toContain('Express consent of 11/20/2026 (Web form: demo request) withdrawn');
    expect(reasons).toContain('Express consent given 11/20/2026 (Web form: demo request) recorded');
    // A new consent may be recorded once the old one is withdrawn.
    expect((await send('POST', `/api/contacts/${ann.id}/consent/express`, consent)).statusCode).toBe(201);
  });

  it('refuses express consent from a day to come, without a source, or with a NUL byte, and writes nothing', async () => {
    const ann = await insertContact(ctx.app, rep, { firstName: 'Ann', phone: DENVER });
    ctx.clock.set(DENVER_742);
    for (const [body, message] of [
      // No zone chosen: 14:42 UTC on the 25th is the 26th somewhere (UTC+14), so only the 27th is to come everywhere.
      [{ givenOn: '2026-11-27', source: 'Web form' }, 'Consent cannot be given on a day still to come'],
      [{ givenOn: '2026-11-20', source: '  ' }, 'Say where the contact gave consent'],
      [{ givenOn: '2026-02-30', source: 'Web form' }, 'Choose a valid day'],
      [
        { givenOn: '2026-11-20', source: 'Web\u0000form' },
        'Text may not contain control characters (such as U+0000)',
      ],
      [{ givenOn: '2026-11-20', source: 'x'.repeat(201) }, 'Keep the source under 200 characters'],
    ] as const) {
      const refused = await send('POST', `/api/contacts/${ann.id}/consent/express`, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(refused.json())).toContain(message);
    }
    const stored = await ctx.db.admin.query('select 1 from express_consents');
    expect(stored.rowCount).toBe(0);
  });

  it('records one consent when the same request arrives fifty times at once', async () => {
    const ann = await insertContact(ctx.app, rep, { firstName: 'Ann', phone: DENVER });
    ctx.clock.set(DENVER_742);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        send('POST', `/api/contacts/${ann.id}/consent/express`, {
          givenOn: '2026-11-20',
          source: 'Web form',
        }),
      ),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(49);
    const entries = await ctx.db.admin.query(
      "select 1 from consent_decisions where code = 'express-consent' and contact_id = $1",
      [ann.id],
    );
    expect(entries.rowCount).toBe(1);
  });

  it('reads numbers in the user’s country: a UK team’s 020 7946 0958 is a London number on a contact, a typed call and an import', async () => {
    // 10:00 in London.
    ctx.clock.set(new Date('2026-11-25T10:00:00Z'));
    const me = (phoneCountry: string) =>
      send('PUT', '/api/me', { firstName: 'Rep', lastName: 'Uk', timeZone: null, phoneCountry });
    const refused = await me('ZZ');
    expect(refused.statusCode).toBe(400);
    expect(JSON.stringify(refused.json())).toContain('Choose a country for phone numbers');
    const saved = await me('GB');
    expect(saved.statusCode).toBe(200);
    expect(saved.json().profile.phoneCountry).toBe('GB');

    const ann = await insertContact(ctx.app, rep, { firstName: 'Ann', phone: '020 7946 0958' });
    expect((await send('GET', `/api/contacts/${ann.id}`)).json().contact.phoneE164).toBe('+442079460958');
    expect((await send('GET', `/api/contacts/${ann.id}/consent`)).json()).toMatchObject({
      zones: ['Europe/London'],
      phoneValid: true,
      localTime: 'Local time 10:00 am, Europe/London',
      call: { allowed: true },
    });
    const typed = await placeCallAs(ctx.app, rep, { to: '020 7946 0959' });
    expect(typed.statusCode).toBe(201);
    expect(typed.json().call.to).toBe('+442079460959');

    const csv = ['First Name,Phone', 'Bea,020 7946 0960', 'Cal,+1 303 296 1237'].join('\n');
    await importFile(ctx.app, rep, 'uk.csv', csv, { mapping: ['firstName', 'phone'], header: true });
    const stored = await ctx.db.admin.query(
      `select first_name, phone_e164 from contacts where user_id = $1 and first_name in ('Bea', 'Cal') order by first_name`,
      [rep.userId],
    );
    expect(stored.rows).toEqual([
      { first_name: 'Bea', phone_e164: '+442079460960' },
      { first_name: 'Cal', phone_e164: '+13032961237' },
    ]);
    // A US user reads the same digits as they always did.
    const other = await createAccount(ctx, 'user');
    const theirs = await insertContact(ctx.app, other, { firstName: 'Dee', phone: '(303) 296-1237' });
    expect((await send('GET', `/api/contacts/${theirs.id}`, undefined, other)).json().contact.phoneE164).toBe(
      '+13032961237',
    );
  });

  it('answers another user’s contact as not found', async () => {
    const other = await createAccount(ctx, 'user');
    const theirs = await insertContact(ctx.app, other, { firstName: 'Theirs', phone: DENVER });
    const consent = { givenOn: '2026-11-20', source: 'Web form' };
    expect((await send('POST', `/api/contacts/${theirs.id}/consent/express`, consent)).statusCode).toBe(404);
    expect((await send('DELETE', `/api/contacts/${theirs.id}/consent/express`)).statusCode).toBe(404);
    expect((await send('GET', `/api/contacts/${theirs.id}/consent`)).statusCode).toBe(404);
    expect((await send('DELETE', `/api/contacts/${theirs.id}/do-not-call`)).statusCode).toBe(404);
    expect((await send('GET', `/api/contacts/${theirs.id}/consent/record`)).statusCode).toBe(404);
    expect((await send('GET', `/api/contacts/${theirs.id}/consent/record.csv`)).statusCode).toBe(404);
  });
});

describe('the consent gate on the power dialer', () => {
  beforeEach(async () => {
    ctx = await createTestApp();
    rep = await createAccount(ctx, 'user');
  });
  afterEach(() => ctx.close());

  it('passes over a contact outside their hours without completing them, and offers them when their window opens', async () => {
    const denver = await insertContact(ctx.app, rep, { firstName: 'Den', phone: DENVER });
    const ny = await insertContact(ctx.app, rep, { firstName: 'Ny', phone: NEW_YORK });
    const queue = (
      await send('POST', '/api/queues', { name: 'Two zones', selection: { ids: [denver.id, ny.id] } })
    ).json().queue.id;
    const walker = randomUUID();
    const walk = async () => (await send('POST', `/api/queues/${queue}/walk`, { walker })).json();
    ctx.clock.set(DENVER_742);

    const first = await walk();
    expect(first.contact.id).toBe(ny.id);
    expect(first.skipped).toEqual([]);
    expect(
      (
        await send('POST', '/api/dispositions', {
          contactId: ny.id,
          disposition: 'no-answer',
          queueId: queue,
        })
      ).statusCode,
    ).toBe(201);

    const asleep = await walk();
    expect(asleep.contact).toBeNull();
    expect(asleep.waiting).toEqual({ count: 1, reason: DENVER_SENTENCE, nextAt: DENVER_800.toISOString() });
    expect(asleep.queue).toMatchObject({ total: 2, completed: 1 });
    // They wait out of the walk's way, with the gate's words, until 8:00 in Denver.
    const stored = await ctx.db.admin.query(
      'select wait_until, wait_reason, completed from queue_members where queue_id = $1 and contact_id = $2',
      [queue, denver.id],
    );
    expect(stored.rows[0]).toEqual({
      wait_until: DENVER_800,
      wait_reason: DENVER_SENTENCE,
      completed: false,
    });
    expect((await walk()).waiting).toEqual(asleep.waiting);

    ctx.clock.set(DENVER_800);
    const awake = await walk();
    expect(awake.contact.id).toBe(denver.id);
    expect(awake.waiting).toBeNull();
  });
});

describe('the consent gate on SMS campaigns', () => {
  const kit = createSmsKit();
  afterEach(() => kit.close());

  it('texts who is within their hours, lets the others wait, and texts them when their window opens', async () => {
    await kit.onSimulator();
    const denver = await insertContact(kit.ctx.app, kit.rep, { firstName: 'Den', phone: DENVER });
    const ny = await insertContact(kit.ctx.app, kit.rep, { firstName: 'Ny', phone: NEW_YORK });
    kit.ctx.clock.set(DENVER_742);
    const id = (await kit.create([denver.id, ny.id])).json().campaign.id;
    expect((await kit.call('POST', `/api/sms-campaigns/${id}/send`)).statusCode).toBe(200);
    await kit.until(() => kit.accepted().length === 1);
    const waiting = await kit.settled(id, 500);
    expect(waiting).toMatchObject({
      status: 'sending',
      counts: { total: 2, sent: 1, queued: 1, skipped: 0 },
    });
    expect(kit.accepted().map((m) => m.to)).toEqual([NEW_YORK]);

    // At 8:00 in Denver the campaign's next run texts them (Pause and Resume start that run now).
    kit.ctx.clock.set(DENVER_800);
    await kit.call('POST', `/api/sms-campaigns/${id}/pause`);
    await kit.call('POST', `/api/sms-campaigns/${id}/resume`);
    expect(await kit.settled(id)).toMatchObject({
      status: 'sent',
      counts: { total: 2, sent: 2, skipped: 0 },
    });
    expect(kit.accepted().map((m) => m.to)).toEqual([NEW_YORK, DENVER]);
  });
});
