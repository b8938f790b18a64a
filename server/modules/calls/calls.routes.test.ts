import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newRequestId } from '#domain/calls/call-guard.ts';
import {
  asCookie,
  buildSecondInstance,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
  allowUnknownLocalTime,
} from '../../test/test-app.ts';
import { insertContact } from '../../test/contact-factory.ts';
import { callRowOf, placeCallAs, waitFor } from '../../test/calls-test-kit.ts';
import { closeStaleCalls } from './stale-calls.janitor.ts';

let ctx: TestContext;
let rep: Session;

beforeEach(async () => {
  ctx = await createTestApp();
  rep = await createAccount(ctx, 'user');
  await allowUnknownLocalTime(ctx.app, rep);
});
afterEach(() => ctx.close());

const call = (payload: object, as: Session = rep, app = ctx.app) => placeCallAs(app, as, payload);
const calling = async (contactId: string, as: Session = rep) =>
  (
    await ctx.app.inject({ method: 'GET', url: `/api/contacts/${contactId}/calling`, headers: asCookie(as) })
  ).json();
const callRow = (id: string) => callRowOf(ctx, id);

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
      await allowUnknownLocalTime(bare.app, user);
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

  it('saves a disposition while a round holds its call and then takes the queue: no deadlock, no 500', async () => {
    // A Parallel round's catch-up writes its lines (the calls) and then the queue's walk index; a rep saving
    // the disposition of a line takes the queue, the contact, then the call. Played here by hand, in that order.
    const contact = await insertContact(ctx.app, rep, { phone: '(555) 010-0005' });
    const queue = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/queues',
        headers: asCookie(rep),
        payload: { name: 'Deadlock', selection: { ids: [contact.id] } },
      })
    ).json().queue;
    const placed = (await call({ contactId: contact.id })).json().call;
    await waitFor(
      () => callRow(placed.id),
      (r) => r.status === 'completed',
    );
    const round = await ctx.db.admin.connect();
    try {
      await round.query('begin');
      await round.query(`update calls set line_state = line_state where id = $1`, [placed.id]);
      const saving = ctx.app.inject({
        method: 'POST',
        url: '/api/dispositions',
        headers: asCookie(rep),
        payload: { callId: placed.id, queueId: queue.id, disposition: 'answered', notes: 'Spoke' },
      });
      // The save waits for the call (today after taking the queue).
      await waitFor(
        async () =>
          (
            await ctx.db.admin.query<{ n: number }>(
              `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
            )
          ).rows[0]!.n,
        (n) => n === 1,
      );
      await round.query(`select 1 from power_dialer_queues where id = $1 for no key update`, [queue.id]);
      await round.query('commit');
      const saved = await saving;
      expect(saved.statusCode).toBe(201);
      const rows = await ctx.db.admin.query(
        `select d.notes, c.notes as call_notes from call_dispositions d join calls c on c.id = d.call_id
         where d.call_id = $1`,
        [placed.id],
      );
      expect(rows.rows).toEqual([{ notes: 'Spoke', call_notes: 'Spoke' }]);
    } finally {
      round.release();
    }
  });

  it('judges a callback’s day in the user’s zone, as the form does, and without one on the last day on Earth', async () => {
    const contact = await insertContact(ctx.app, rep, {});
    const save = (callbackDate: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/dispositions',
        headers: asCookie(rep),
        payload: { contactId: contact.id, disposition: 'call-back', callbackDate },
      });
    // 06:00 UTC on 22 November: still the 21st in Los Angeles (10 pm), already the 22nd in London.
    ctx.clock.set(new Date('2026-11-22T06:00:00Z'));
    const nineLaOn21 = '2026-11-21T17:00:00.000Z';
    // No zone chosen: the 21st is still a day somewhere (UTC-12), so it is not refused.
    expect((await save(nineLaOn21)).statusCode).toBe(201);
    const me = (zone: string) =>
      ctx.app.inject({
        method: 'PUT',
        url: '/api/me',
        headers: asCookie(rep),
        payload: { firstName: 'Rep', lastName: 'One', timeZone: zone },
      });
    expect((await me('America/Los_Angeles')).statusCode).toBe(200);
    expect((await save(nineLaOn21)).statusCode).toBe(201);
    expect((await me('Europe/London')).statusCode).toBe(200);
    const refused = await save(nineLaOn21);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('The callback date cannot be in the past');
    expect((await save('2026-11-22T09:00:00.000Z')).statusCode).toBe(201);
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
