import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newRequestId } from '#domain/calls/call-guard.ts';
import { signSimulatorFields } from '../../telephony/simulator.ts';
import {
  asCookie,
  buildSecondInstance,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';
import { insertContact } from '../../test/contact-factory.ts';
import { closeStaleCalls } from './stale-calls.janitor.ts';

let ctx: TestContext;
let rep: Session;

beforeEach(async () => {
  ctx = await createTestApp();
  rep = await createAccount(ctx, 'user');
});
afterEach(() => ctx.close());

const call = (payload: object, as: Session = rep, app = ctx.app) =>
  app.inject({
    method: 'POST',
    url: '/api/calls',
    headers: asCookie(as),
    payload: { requestId: newRequestId(), ...payload },
  });
const calling = async (contactId: string, as: Session = rep) =>
  (
    await ctx.app.inject({ method: 'GET', url: `/api/contacts/${contactId}/calling`, headers: asCookie(as) })
  ).json();
const callRow = async (id: string) =>
  (
    await ctx.db.admin.query(
      'select status, duration_seconds, answered_at, ended_at, error from calls where id = $1',
      [id],
    )
  ).rows[0];
const waitFor = async <T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 3000): Promise<T> => {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('click-to-call on the simulator', () => {
  it('rings, connects and ends through the status webhook, and the record follows', async () => {
    const contact = await insertContact(ctx.app, rep, { phone: '(555) 010-0005' });
    const placed = await call({ contactId: contact.id });
    expect(placed.statusCode).toBe(201);
    expect(placed.json().call).toMatchObject({
      contactId: contact.id,
      provider: 'simulator',
      to: '+15550100005',
      from: '+15550100000',
      status: 'initiated',
    });
    const id = placed.json().call.id as string;
    const final = await waitFor(
      () => callRow(id),
      (r) => r.status === 'completed',
    );
    expect(final.status).toBe('completed');
    expect(final.answered_at).not.toBeNull();
    expect(final.ended_at).not.toBeNull();
    expect(final.duration_seconds).toBeGreaterThanOrEqual(29);
    expect((await calling(contact.id)).calls[0]).toMatchObject({ id, status: 'completed' });
  });

  it.each([
    ['5550100010', 'busy'],
    ['5550100011', 'no-answer'],
    ['5550100012', 'failed'],
  ])('reproduces each outcome from the number: %s ends %s', async (phone, outcome) => {
    const placed = await call({ to: phone });
    expect(placed.statusCode).toBe(201);
    const final = await waitFor(
      () => callRow(placed.json().call.id),
      (r) => r.status === outcome,
    );
    expect(final.status).toBe(outcome);
  });

  it("answers the provider's own words when it refuses a call, and records the attempt", async () => {
    const cases = [
      ['(999) 555-0100', /not verified/],
      ['(998) 555-0100', /geo-permissions/],
      ['(997) 555-0100', /trial account/],
    ] as const;
    for (const [to, words] of cases) {
      const refused = await call({ to });
      expect(refused.statusCode).toBe(502);
      expect(refused.json().code).toBe('PROVIDER_ERROR');
      expect(refused.json().message).toMatch(words);
    }
    const failed = await ctx.db.admin.query(
      `select count(*)::int as n from calls where status = 'failed' and error is not null`,
    );
    expect(failed.rows[0].n).toBe(3);
  });

  it('gives up on a provider that does not answer, at once and without placing the call twice', async () => {
    const started = Date.now();
    const hanging = await call({ to: '(996) 555-0100' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(hanging.statusCode).toBe(502);
    expect(hanging.json().message).toMatch(/did not answer in time/);
    const rows = (await ctx.db.admin.query('select status from calls')).rows;
    expect(rows).toEqual([{ status: 'failed' }]);
    expect((await ctx.db.admin.query('select count(*)::int as n from call_locks')).rows[0].n).toBe(0);
  });

  it('hangs up a live call on request', async () => {
    const placed = await call({ to: '5550100007' });
    const id = placed.json().call.id as string;
    await waitFor(
      () => callRow(id),
      (r) => r.status === 'in-progress',
    );
    const hung = await ctx.app.inject({
      method: 'POST',
      url: `/api/calls/${id}/hangup`,
      headers: asCookie(rep),
    });
    expect(hung.statusCode).toBe(204);
    expect(
      (
        await waitFor(
          () => callRow(id),
          (r) => r.status === 'completed',
        )
      ).status,
    ).toBe('completed');
  });
});

describe('the rules before a call goes out', () => {
  it('needs a phone on the contact, a caller ID, and two different numbers', async () => {
    const noPhone = await insertContact(ctx.app, rep, { phone: null });
    expect((await call({ contactId: noPhone.id })).json().message).toBe(
      'Contact does not have a valid phone number',
    );
    expect((await call({ to: '+1 555 010 0000' })).json().message).toBe(
      "Invalid call configuration: The 'from' number and contact's number cannot be the same. Please use a different 'from' number.",
    );
    const bare = await createTestApp({ defaultCallerId: null });
    try {
      const user = await createAccount(bare, 'user');
      const missing = await bare.app.inject({
        method: 'POST',
        url: '/api/calls',
        headers: asCookie(user),
        payload: { requestId: newRequestId(), to: '5550100005' },
      });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().message).toBe(
        "Missing phone number: Please provide a 'from' phone number for Twilio calls",
      );
      await bare.app.inject({
        method: 'POST',
        url: '/api/caller-ids',
        headers: asCookie(user),
        payload: { number: '(555) 010-4444' },
      });
      const placed = await bare.app.inject({
        method: 'POST',
        url: '/api/calls',
        headers: asCookie(user),
        payload: { requestId: newRequestId(), to: '5550100005' },
      });
      expect(placed.json().call.from).toBe('+15550104444');
    } finally {
      await bare.close();
    }
  });

  it('treats the same request id as the same call', async () => {
    const requestId = newRequestId();
    const first = await call({ to: '5550100005', requestId });
    const second = await call({ to: '5550100005', requestId });
    expect(second.statusCode).toBe(201);
    expect(second.json().call.id).toBe(first.json().call.id);
    expect((await ctx.db.admin.query('select count(*)::int as n from calls')).rows[0].n).toBe(1);
  });

  it('places exactly one call for 50 simultaneous requests to one contact, across two server instances', async () => {
    const second = await buildSecondInstance(ctx);
    try {
      const contact = await insertContact(ctx.app, rep, { phone: '(555) 010-0005' });
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => call({ contactId: contact.id }, rep, i % 2 ? second : ctx.app)),
      );
      const statuses = answers.map((a) => a.statusCode);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(49);
      const codes = new Set(answers.filter((a) => a.statusCode === 409).map((a) => a.json().code));
      expect([...codes].every((c) => c === 'DUPLICATE_PREVENTED' || c === 'CONCURRENT_PREVENTED')).toBe(true);
      const placed = await ctx.db.admin.query(
        'select count(*)::int as n from calls where provider_call_id is not null',
      );
      expect(placed.rows[0].n).toBe(1);
    } finally {
      await second.close();
    }
  });

  it('refuses the same number within the windows with the spec messages, and lets other numbers through', async () => {
    await call({ to: '5550100005' });
    const again = await call({ to: '(555) 010-0005' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      code: 'DUPLICATE_PREVENTED',
      message: 'Please wait a moment before trying again',
    });
    ctx.clock.advance(6_000);
    const stillGoing = await call({ to: '5550100005' });
    expect(stillGoing.json().code).toBe('CONCURRENT_PREVENTED');
    expect(stillGoing.json().message).toBe('A call to this number is already in progress');
    expect((await call({ to: '5550100006' })).statusCode).toBe(201);
  });

  it('refuses a number on the do-not-call list until it is removed', async () => {
    const contact = await insertContact(ctx.app, rep, { phone: '(555) 010-0033' });
    const saved = await ctx.app.inject({
      method: 'POST',
      url: '/api/dispositions',
      headers: asCookie(rep),
      payload: { contactId: contact.id, disposition: 'do-not-call' },
    });
    expect(saved.statusCode).toBe(201);
    expect((await calling(contact.id)).doNotCall).toBe(true);
    const refused = await call({ contactId: contact.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'DO_NOT_CALL' });
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/contacts/${contact.id}/do-not-call`,
      headers: asCookie(rep),
    });
    expect(removed.statusCode).toBe(204);
    expect((await call({ contactId: contact.id })).statusCode).toBe(201);
  });
});

describe('status webhooks', () => {
  const post = (fields: Record<string, string>, signature?: string, query = '') =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/telephony/simulator/status${query}`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(signature !== undefined && { 'x-simulator-signature': signature }),
      },
      payload: new URLSearchParams(fields).toString(),
    });
  // The app's simulator secret is derived from the session secret (app.ts); tests sign with the same rule.
  const secret = () =>
    createHmac('sha256', 'test-session-secret-that-is-long-enough-1234')
      .update('telephony-simulator')
      .digest('base64url');
  /**
   * A call with no provider id yet, as when its first event overtakes the provider's answer to placeCall. Placed
   * to 996… (a provider that never answers), so the simulator sends no events of its own for it.
   */
  const callWithoutProviderId = async (to: string) => {
    expect((await call({ to })).statusCode).toBe(502);
    const id = (await ctx.db.admin.query(`select id from calls order by started_at desc, id limit 1`)).rows[0]
      .id as string;
    await ctx.db.admin.query(
      `update calls set provider_call_id = null, status = 'queued', ended_at = null where id = $1`,
      [id],
    );
    return id;
  };

  it('refuses a missing or wrong signature and writes nothing', async () => {
    const placed = await call({ to: '5550100011' });
    const sid = (await ctx.db.admin.query('select provider_call_id from calls')).rows[0]
      .provider_call_id as string;
    const fields = { CallSid: sid, CallStatus: 'completed', CallDuration: '99' };
    expect((await post(fields)).statusCode).toBe(403);
    expect((await post(fields, signSimulatorFields('wrong secret', fields))).statusCode).toBe(403);
    const row = await callRow(placed.json().call.id);
    expect(row.duration_seconds).not.toBe(99);
  });

  it('refuses a signature of the right length in non-ASCII characters with 403, not a crash', async () => {
    const placed = await call({ to: '5550100011' });
    const sid = (await ctx.db.admin.query('select provider_call_id from calls')).rows[0]
      .provider_call_id as string;
    const fields = { CallSid: sid, CallStatus: 'completed' };
    const length = signSimulatorFields(secret(), fields).length;
    for (const forged of ['é'.repeat(length), '😀'.repeat(length / 2), `${'a'.repeat(length - 1)}\u00ff`]) {
      const response = await post(fields, forged);
      expect(response.statusCode, forged).toBe(403);
    }
    expect((await callRow(placed.json().call.id)).status).not.toBe('completed');
  });

  it('ignores a signed duration that is not a sane whole number of seconds, and still ends the call', async () => {
    for (const [i, duration] of ['99999999999', '-5', '1e3', '2147483648', 'NaN', '12.5'].entries()) {
      const id = await callWithoutProviderId(`99655502${i}3`);
      const fields = {
        CallSid: `CA${id.replace(/-/g, '')}`,
        CallStatus: 'completed',
        CallDuration: duration,
      };
      const query = `?callId=${id}`;
      const response = await post(fields, signSimulatorFields(secret(), fields, query), query);
      expect(response.statusCode, duration).toBe(204);
      const row = await callRow(id);
      expect(row.status).toBe('completed');
      expect(row.duration_seconds).toBeGreaterThanOrEqual(0);
      expect(row.duration_seconds).toBeLessThan(10_000);
    }
  });

  it('applies shuffled, repeated events for 100 calls once each, ending every call in its right state', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) {
      await ctx.db.admin.query(
        `insert into calls (user_id, request_id, provider, provider_call_id, from_number, to_number, status, updated_at)
         values ($1, $2, 'simulator', $3, '+15550100000', $4, 'initiated', now())`,
        [
          rep.userId,
          `r${String(i).padStart(7, '0')}`,
          `SIMTEST${i}`,
          `+1555020${String(i).padStart(4, '0')}`,
        ],
      );
      ids.push(`SIMTEST${i}`);
    }
    const finals = ['completed', 'busy', 'no-answer', 'failed'];
    const events = ids.flatMap((sid, i) => {
      const final = finals[i % 4]!;
      const path = final === 'completed' ? ['ringing', 'in-progress', 'completed'] : ['ringing', final];
      return [...path, ...path].map((status) => ({
        CallSid: sid,
        CallStatus: status,
        ...(status === final ? { CallDuration: '42' } : {}),
      }));
    });
    events.sort(() => Math.random() - 0.5);
    const key = secret();
    for (const fields of events)
      expect((await post(fields, signSimulatorFields(key, fields))).statusCode).toBe(204);
    const rows = (
      await ctx.db.admin.query(
        `select provider_call_id, status, duration_seconds from calls where provider_call_id like 'SIMTEST%'`,
      )
    ).rows;
    for (const row of rows) {
      const i = Number(String(row.provider_call_id).replace('SIMTEST', ''));
      expect({ sid: row.provider_call_id, status: row.status }).toEqual({
        sid: row.provider_call_id,
        status: finals[i % 4],
      });
      expect(row.duration_seconds).toBe(42);
    }
  });

  it('applies both of two events racing for a call whose provider id is not stored yet', async () => {
    const lost: string[] = [];
    for (let i = 0; i < 20; i++) {
      const id = await callWithoutProviderId(`99655501${String(i).padStart(2, '0')}`);
      const query = `?callId=${id}`;
      const event = (status: string) => {
        const fields = { CallSid: `SIMRACE${i}`, CallStatus: status };
        return post(fields, signSimulatorFields(secret(), fields, query), query);
      };
      await Promise.all([event('ringing'), event('busy')]);
      const { status } = await callRow(id);
      if (status !== 'busy') lost.push(`${i}: ${status}`);
    }
    expect(lost).toEqual([]);
  });

  it('finds the call by our id in the callback URL when an event comes before the provider id is stored', async () => {
    const id = await callWithoutProviderId('9965550100');
    const fields = { CallSid: 'SIMEARLY1', CallStatus: 'ringing' };
    const query = `?callId=${id}`;
    // The call id is signed with the rest: a signature made for another URL does not verify.
    expect((await post(fields, signSimulatorFields(secret(), fields), query)).statusCode).toBe(403);
    expect((await post(fields, signSimulatorFields(secret(), fields, query), query)).statusCode).toBe(204);
    const row = (await ctx.db.admin.query('select status, provider_call_id from calls where id = $1', [id]))
      .rows[0];
    expect(row).toEqual({ status: 'ringing', provider_call_id: 'SIMEARLY1' });
    // Once stored, the provider id alone finds it; our id cannot re-point a call that has one.
    const other = { CallSid: 'SIMOTHER', CallStatus: 'completed', CallDuration: '5' };
    expect((await post(other, signSimulatorFields(secret(), other, query))).statusCode).toBe(403);
    const again = await post(other, signSimulatorFields(secret(), other, query), query);
    expect(again.statusCode).toBe(204);
    expect(await callRow(id)).toMatchObject({ status: 'ringing' });
  });
});

describe('dispositions, the day log and the rest', () => {
  it('links a disposition to its call, updates the contact at once, and counts the day', async () => {
    const contact = await insertContact(ctx.app, rep, { phone: '(555) 010-0005', status: 'contacted' });
    const placed = (await call({ contactId: contact.id })).json().call;
    await waitFor(
      () => callRow(placed.id),
      (r) => r.status === 'completed',
    );
    const saved = await ctx.app.inject({
      method: 'POST',
      url: '/api/dispositions',
      headers: asCookie(rep),
      payload: { callId: placed.id, disposition: 'qualified', notes: 'Wants a demo', qualification: 'hot' },
    });
    expect(saved.statusCode).toBe(201);
    expect(saved.json().disposition).toMatchObject({
      callId: placed.id,
      contactId: contact.id,
      isQualified: true,
    });
    const detail = (
      await ctx.app.inject({ method: 'GET', url: `/api/contacts/${contact.id}`, headers: asCookie(rep) })
    ).json();
    expect(detail.contact).toMatchObject({ isQualified: true, lastCallDate: placed.startedAt });

    const day = await ctx.app.inject({
      method: 'GET',
      url: `/api/calls/day?from=2026-11-21T00:00:00.000Z&to=2026-11-22T00:00:00.000Z`,
      headers: asCookie(rep),
    });
    expect(day.statusCode).toBe(200);
    expect(day.json().stats).toMatchObject({
      total: 1,
      answered: 1,
      answerRate: '100.0',
      qualified: 1,
      qualifiedRate: '100.0',
    });
    expect(day.json().lines[0]).toMatchObject({
      callId: placed.id,
      disposition: 'qualified',
      phone: '+15550100005',
    });
  });

  it('lists callbacks once their date has come, until the contact is called again', async () => {
    const contact = await insertContact(ctx.app, rep, { firstName: 'Cal', phone: '(555) 010-0005' });
    const save = (payload: object) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/dispositions',
        headers: asCookie(rep),
        payload: { contactId: contact.id, ...payload },
      });
    await save({ disposition: 'call-back', callbackDate: '2026-11-22T09:00:00Z', notes: 'After lunch' });
    const due = async () =>
      (await ctx.app.inject({ method: 'GET', url: '/api/calls/callbacks', headers: asCookie(rep) })).json()
        .callbacks;
    expect(await due()).toEqual([]);
    ctx.clock.advance(25 * 3600 * 1000);
    expect(await due()).toMatchObject([
      { contactId: contact.id, contactName: expect.stringContaining('Cal'), notes: 'After lunch' },
    ]);
    await save({ disposition: 'answered' });
    expect(await due()).toEqual([]);
  });

  it('refuses a disposition without a contact, a callback in the past, and another user’s call', async () => {
    const missing = await ctx.app.inject({
      method: 'POST',
      url: '/api/dispositions',
      headers: asCookie(rep),
      payload: { disposition: 'answered' },
    });
    expect(missing.json().message).toBe('Missing required information to save disposition');
    const contact = await insertContact(ctx.app, rep, {});
    const past = await ctx.app.inject({
      method: 'POST',
      url: '/api/dispositions',
      headers: asCookie(rep),
      payload: { contactId: contact.id, disposition: 'call-back', callbackDate: '2026-11-01T10:00:00Z' },
    });
    expect(past.json().message).toBe('The callback date cannot be in the past');
    const placed = (await call({ to: '5550100005' })).json().call;
    const other = await createAccount(ctx, 'user');
    const foreign = await ctx.app.inject({
      method: 'POST',
      url: '/api/dispositions',
      headers: asCookie(other),
      payload: { callId: placed.id, disposition: 'answered' },
    });
    expect(foreign.statusCode).toBe(404);
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: `/api/calls/${placed.id}/hangup`,
          headers: asCookie(other),
        })
      ).statusCode,
    ).toBe(404);
    expect((await calling(contact.id, other)).code).toBe('NOT_FOUND');
  });

  it('resets the call system: lock released, unfinished calls closed', async () => {
    await call({ to: '5550100007' });
    await ctx.db.admin.query(
      `insert into call_locks (user_id, request_id, taken_at) values ($1, 'stuck000', now())
      on conflict (user_id) do update set taken_at = now()`,
      [rep.userId],
    );
    const reset = await ctx.app.inject({ method: 'POST', url: '/api/calls/reset', headers: asCookie(rep) });
    expect(reset.json().closed).toBe(1);
    expect((await ctx.db.admin.query('select count(*)::int as n from call_locks')).rows[0].n).toBe(0);
    expect((await call({ to: '5550100008' })).statusCode).toBe(201);
  });

  it('closes calls that never hear back', async () => {
    await ctx.db.admin.query(
      `insert into calls (user_id, request_id, provider, provider_call_id, from_number, to_number, status, updated_at)
       values ($1, 'stale001', 'simulator', 'SIMSTALE', '+15550100000', '+15550100099', 'ringing', now() - interval '10 minutes')`,
      [rep.userId],
    );
    expect(await closeStaleCalls({ db: ctx.app.ctx.db, clock: () => new Date() })).toBe(1);
    const row = (await ctx.db.admin.query(`select status, error from calls where request_id = 'stale001'`))
      .rows[0];
    expect(row).toEqual({ status: 'failed', error: 'The telephony provider never reported back' });
  });
});
