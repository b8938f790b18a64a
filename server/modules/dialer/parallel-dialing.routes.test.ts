import { createHmac, randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { newRequestId } from '#domain/calls/call-guard.ts';
import type { ParallelState } from '#domain/dialer/parallel-dialing.schema.ts';
import { signSimulatorFields } from '../../telephony/simulator.ts';
import { insertContact } from '../../test/contact-factory.ts';
import { seedQueueHistory, waitFor } from '../../test/calls-test-kit.ts';
import {
  allowUnknownLocalTime,
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';

/*
 * Parallel dialing through the real routes, the simulator and PostgreSQL (docs/decisions/026-parallel-dialing-pacing.md).
 * The simulator's numbers say what happens (README "Calling"): a number ending in 4 is answered by a person at 3 s
 * and detected at 4 s, 5 by a person a second and a half later, 3 by a machine, 0 is busy, 1 rings unanswered for 8 s.
 * These tests run the simulator at a quarter of real time, so the order of events does not hang on a busy machine.
 */

let ctx: TestContext;
let rep: Session;
afterEach(() => ctx.close());

async function setUp(timeScale = 0.25) {
  ctx = await createTestApp({
    telephony: { provider: 'simulator', timeScale, timeoutMs: 300, bulkSpacingMs: 50 },
  });
  rep = await createAccount(ctx, 'user');
  await allowUnknownLocalTime(ctx.app, rep);
}

/** The key the test server's simulator signs its webhooks with (derived from the session secret). */
const simulatorSecret = () =>
  createHmac('sha256', 'test-session-secret-that-is-long-enough-1234')
    .update('telephony-simulator')
    .digest('base64url');

const send = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, who = rep) =>
  ctx.app.inject({ method, url, headers: asCookie(who), ...(payload !== undefined && { payload }) });

async function parallelQueue(phones: string[], who = rep, history = 32) {
  const ids = [];
  for (const [i, phone] of phones.entries())
    ids.push((await insertContact(ctx.app, who, { firstName: `Line${i + 1}`, phone })).id);
  const created = await send('POST', '/api/queues', { name: 'Parallel', selection: { ids } }, who);
  expect(created.statusCode).toBe(201);
  const queueId = created.json<{ queue: { id: string } }>().queue.id;
  const saved = await send(
    'PUT',
    `/api/queues/${queueId}/dialing`,
    { mode: 'parallel', capPercent: null },
    who,
  );
  expect(saved.statusCode).toBe(200);
  if (history > 0) await seedQueueHistory(ctx.db.admin, queueId, history, ctx.clock.now());
  return { queueId, ids };
}

const start = async (queueId: string, walker: string) => {
  const response = await send('POST', `/api/queues/${queueId}/parallel/round`, { walker });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ParallelState>();
};
const state = async (queueId: string, walker: string) =>
  (await send('GET', `/api/queues/${queueId}/parallel?walker=${walker}`)).json<ParallelState>();
const ENDED = ['completed', 'busy', 'no-answer', 'failed', 'canceled'];
/** The round once it has settled and every line but the connected one has ended. */
const settledState = (queueId: string, walker: string) =>
  waitFor(
    () => state(queueId, walker),
    (s) =>
      s.round?.settled === true &&
      s.round.lines.every(
        (l) =>
          !['ringing', 'answered'].includes(l.state) && (l.state === 'connected' || ENDED.includes(l.status)),
      ),
    8000,
  );
const member = async (queueId: string, contactId: string) =>
  (
    await ctx.db.admin.query<{ completed: boolean; claimed_by: string | null }>(
      'select completed, claimed_by from queue_members where queue_id = $1 and contact_id = $2',
      [queueId, contactId],
    )
  ).rows[0]!;

describe('parallel dialing', () => {
  it('rings two lines, connects the first person and releases the line still ringing back to the queue', async () => {
    await setUp();
    const { queueId, ids } = await parallelQueue(['5550101004', '5550101011', '5550101024']);
    const walker = randomUUID();
    const started = await start(queueId, walker);
    // Half the queue's dials reach a person: two lines.
    expect(started.next.why).toBe('2 lines: 50 % of recent dials reach a person');
    expect(started.round?.lines.map((l) => l.contact.id)).toEqual([ids[0], ids[1]]);

    const done = await settledState(queueId, walker);
    const [person, ringing] = done.round!.lines;
    expect(done.round!.connectedCallId).toBe(person!.callId);
    expect(person).toMatchObject({ state: 'connected', answeredBy: 'human' });
    expect(ringing).toMatchObject({ state: 'released', status: 'canceled' });
    expect(ringing!.error).toBe('Released: another line reached you first');
    // The released contact is back in the queue, not called; the connected one stays held until its disposition.
    expect(await member(queueId, ids[1]!)).toEqual({ completed: false, claimed_by: null });
    const { rows: held } = await ctx.db.admin.query<{ line_walker: string }>(
      'select line_walker from calls where id = $1',
      [person!.callId],
    );
    expect((await member(queueId, ids[0]!)).claimed_by).toBe(held[0]!.line_walker);

    const saved = await send('POST', '/api/dispositions', {
      callId: person!.callId,
      contactId: ids[0],
      disposition: 'qualified',
      queueId,
    });
    expect(saved.statusCode).toBe(201);
    expect((await member(queueId, ids[0]!)).completed).toBe(true);
  });

  it('records only the line put through to the rep, when recording is on and no disclosure is needed', async () => {
    await setUp();
    // 1 pm in Texas: within calling hours.
    ctx.clock.set(new Date('2026-11-21T19:00:00Z'));
    expect(
      (await send('PUT', '/api/recording-settings', { recordCalls: true, retentionDays: 90 })).statusCode,
    ).toBe(200);
    const ids = [];
    // A person answers the first; the second rings on and is released. Both Texans (one-party consent).
    for (const phone of ['5125550104', '5125550101'])
      ids.push((await insertContact(ctx.app, rep, { firstName: 'Tex', phone, state: 'TX' })).id);
    const created = await send('POST', '/api/queues', { name: 'Recorded', selection: { ids } });
    const queueId = created.json<{ queue: { id: string } }>().queue.id;
    await send('PUT', `/api/queues/${queueId}/dialing`, { mode: 'parallel', capPercent: null });
    await seedQueueHistory(ctx.db.admin, queueId, 32, ctx.clock.now());
    const walker = randomUUID();
    await start(queueId, walker);
    const done = await settledState(queueId, walker);
    const person = done.round!.lines.find((l) => l.state === 'connected')!;
    const released = done.round!.lines.find((l) => l.callId !== person.callId)!;
    expect(released.state).toBe('released');
    expect((await send('POST', `/api/calls/${person.callId}/hangup`)).statusCode).toBe(204);
    const recordings = () =>
      ctx.db.admin
        .query<{ call_id: string }>(`select call_id from recordings where kind = 'call'`)
        .then((r) => r.rows.map((row) => row.call_id));
    expect(await waitFor(recordings, (r) => r.length > 0, 8000)).toEqual([person.callId]);
    // A recording reported for a line that was never put through to the rep is turned away.
    const fields = {
      CallSid: `SIM${'1'.repeat(32)}`,
      RecordingSid: `RESIM${'2'.repeat(32)}`,
      RecordingUrl: `simulator:recordings/RESIM${'2'.repeat(32)}?seconds=5`,
      RecordingDuration: '5',
      RecordingStatus: 'completed',
    };
    const query = `?callId=${released.callId}`;
    const report = await ctx.app.inject({
      method: 'POST',
      url: `/api/telephony/simulator/call-recording${query}`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-simulator-signature': signSimulatorFields(simulatorSecret(), fields, query),
      },
      payload: new URLSearchParams(fields).toString(),
    });
    expect(report.statusCode).toBeLessThan(300);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await recordings()).toEqual([person.callId]);
  });

  it('counts a released line whose answer is reported after its end as abandoned: the person was hung up on', async () => {
    await setUp();
    const { queueId } = await parallelQueue(['5550101004', '5550101011', '5550101024']);
    const walker = randomUUID();
    await start(queueId, walker);
    const done = await settledState(queueId, walker);
    const released = done.round!.lines[1]!;
    expect(released).toMatchObject({ state: 'released', status: 'canceled' });
    const { rows } = await ctx.db.admin.query<{ provider_call_id: string }>(
      'select provider_call_id from calls where id = $1',
      [released.callId],
    );
    // The provider reports, late (a line released before its id was known is ended at once), that it was answered.
    const fields = { CallSid: rows[0]!.provider_call_id, CallStatus: 'in-progress' };
    const secret = createHmac('sha256', 'test-session-secret-that-is-long-enough-1234')
      .update('telephony-simulator')
      .digest('base64url');
    const late = await ctx.app.inject({
      method: 'POST',
      url: '/api/telephony/simulator/status',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-simulator-signature': signSimulatorFields(secret, fields),
      },
      payload: new URLSearchParams(fields).toString(),
    });
    expect(late.statusCode).toBe(204);
    const after = await state(queueId, walker);
    expect(after.round!.lines[1]).toMatchObject({ state: 'abandoned', status: 'completed' });
    const { rows: call } = await ctx.db.admin.query<{ answered_at: Date | null; abandoned_at: Date | null }>(
      'select answered_at, abandoned_at from calls where id = $1',
      [released.callId],
    );
    expect(call[0]!.answered_at).not.toBeNull();
    expect(call[0]!.abandoned_at).not.toBeNull();
  });

  it('hangs up on a machine with a Voicemail outcome, its answer having released the line still ringing', async () => {
    await setUp();
    const { queueId, ids } = await parallelQueue(['5550101003', '5550101021']);
    const walker = randomUUID();
    await start(queueId, walker);
    const done = await settledState(queueId, walker);
    expect(done.round!.connectedCallId).toBeNull();
    expect(done.round!.lines.map((l) => [l.state, l.disposition])).toEqual([
      ['machine', 'voicemail'],
      ['released', null],
    ]);
    expect(await member(queueId, ids[0]!)).toEqual({ completed: true, claimed_by: null });
    expect(await member(queueId, ids[1]!)).toEqual({ completed: false, claimed_by: null });
    expect(done.queue.completed).toBe(1);
  });

  it('records busy and no answer by themselves when nobody answers, completing both', async () => {
    await setUp();
    const { queueId, ids } = await parallelQueue(['5550101020', '5550101031']);
    const walker = randomUUID();
    await start(queueId, walker);
    const done = await settledState(queueId, walker);
    expect(done.round!.lines.map((l) => [l.state, l.disposition])).toEqual([
      ['ended', 'busy'],
      ['ended', 'no-answer'],
    ]);
    for (const id of ids) expect(await member(queueId, id)).toEqual({ completed: true, claimed_by: null });
  });

  it('counts a person who picked up just as their line was released as abandoned: 72 hours without a call, and the pacing drops to one line', async () => {
    await setUp();
    // …6 picks up the moment its line is released (the simulator makes the race certain, however busy the machine).
    const { queueId, ids } = await parallelQueue(['5550101004', '5550101016', '5550101034']);
    // Eight more unanswered dials in the history: the answer rate (34 of 75–76 dials, however many lines this round
    // got to place) asks for two lines, so what holds the dialer to one below is the cap, not the rate.
    await ctx.db.admin.query(
      `insert into calls (user_id, request_id, provider, from_number, to_number, status, started_at, updated_at, queue_id)
       select q.user_id, 'miss' || lpad(g::text, 4, '0'), 'simulator', '+15550100000', '+1555030' || lpad(g::text, 4, '0'), 'completed',
         $2, $2, q.id
       from power_dialer_queues q, generate_series(1, 8) g where q.id = $1`,
      [queueId, new Date(ctx.clock.now().getTime() - 10 * 3600_000)],
    );
    const walker = randomUUID();
    await start(queueId, walker);
    // Released first, then abandoned once the answer is reported (late, on a busy machine: after the line was
    // ended because it was released before the provider had told us its id).
    const done = await waitFor(
      () => settledState(queueId, walker),
      (s) => s.round!.lines[1]?.state === 'abandoned',
      8000,
    );
    const states = done.round!.lines.map((l) => l.state);
    expect(states).toEqual(['connected', 'abandoned']);
    const abandoned = done.round!.lines[1]!;
    // Hung up as it answered, or (on a slow machine, answered before the release) told the message.
    expect([
      'Abandoned: answered as another line reached you, and hung up before the message',
      'Abandoned: you were on another call; they heard the identification message',
    ]).toContain(abandoned.error);
    const ended = await waitFor(
      async () =>
        (
          await ctx.db.admin.query<{ status: string; abandoned_at: Date | null }>(
            'select status, abandoned_at from calls where id = $1',
            [abandoned.callId],
          )
        ).rows[0]!,
      (row) => row.status === 'completed',
      15_000,
    );
    expect(ended.abandoned_at).not.toBeNull();
    // Either way the consent gate keeps the number waiting for 72 hours (below).
    expect(ids).toContain(abandoned.contact.id);

    // Not called again for 72 hours, by any path: the consent gate refuses it and says until when.
    const again = await send('POST', '/api/calls', {
      requestId: newRequestId(),
      contactId: abandoned.contact.id,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/^Abandoned call on \d\d\/\d\d\/2026: not dialled again before /);

    // The call log counts it apart: not answered, abandoned.
    const day = await send('GET', '/api/calls/day?from=2026-11-21T00:00:00Z&to=2026-11-22T00:00:00Z');
    const log = day.json<{
      lines: { callId: string; abandoned: boolean; answered: boolean }[];
      stats: object;
    }>();
    expect(log.stats).toMatchObject({ total: 2, answered: 1, abandoned: 1 });
    expect(log.lines.find((l) => l.callId === abandoned.callId)).toMatchObject({
      abandoned: true,
      answered: false,
    });

    // One abandoned of 34 live answers: a second abandoned call would pass the cap, so one line until there is room.
    const after = await state(queueId, walker);
    expect(after.abandonment.last30Days).toEqual({ liveAnswers: 34, abandoned: 1, percent: 2.9 });
    expect(after.next).toEqual({
      lines: 1,
      why: '1 line: another needs 31 more live answers first, to stay under the 3 % cap (last 24 hours: 1 abandoned of 34)',
    });
  });

  it('rings one line on a queue with no live answers yet, and counts a released line not yet ended against the room', async () => {
    await setUp(1);
    const { queueId } = await parallelQueue(['5550101011', '5550101021', '5550101031'], rep, 0);
    const walker = randomUUID();
    const first = await start(queueId, walker);
    expect(first.round!.lines).toHaveLength(1);
    expect(first.next.why).toBe(
      '1 line: another needs 32 more live answers first, to stay under the 3 % cap (last 24 hours: 0 abandoned of 0)',
    );
    await send('POST', `/api/queues/${queueId}/parallel/pause`, { walker });
    await settledState(queueId, walker);

    // Room for two lines, but a line released a moment ago has not ended yet: it might still be answered.
    await seedQueueHistory(ctx.db.admin, queueId, 32, ctx.clock.now());
    expect((await state(queueId, walker)).next.lines).toBe(2);
    const { rows } = await ctx.db.admin.query<{ id: string }>(
      `insert into calls (user_id, request_id, provider, from_number, to_number, status, started_at, updated_at,
         queue_id, line_no, line_state)
       values ($1, 'released', 'simulator', '+15550100000', '+15550209999', 'ringing', $2, $2, $3, 1, 'released')
       returning id`,
      [rep.userId, ctx.clock.now(), queueId],
    );
    expect(rows).toHaveLength(1);
    expect((await state(queueId, walker)).next.lines).toBe(1);
  });

  it('pauses a round: lines still ringing are hung up and their contacts go back to the queue', async () => {
    await setUp(1); // real time: an unanswered number rings for 8 s
    const { queueId, ids } = await parallelQueue(['5550101011', '5550101021']);
    const walker = randomUUID();
    const started = await start(queueId, walker);
    expect(started.round!.lines).toHaveLength(2);
    const paused = await send('POST', `/api/queues/${queueId}/parallel/pause`, { walker });
    expect(paused.statusCode).toBe(200);
    expect(paused.json<ParallelState>().round!.lines.map((l) => l.state)).toEqual(['released', 'released']);
    const done = await settledState(queueId, walker);
    expect(done.round!.lines.map((l) => l.status)).toEqual(['canceled', 'canceled']);
    for (const id of ids) expect(await member(queueId, id)).toEqual({ completed: false, claimed_by: null });
    // Pausing again, with nothing ringing, changes nothing.
    expect((await send('POST', `/api/queues/${queueId}/parallel/pause`, { walker })).statusCode).toBe(200);
  });

  it('starts one round however many times it is asked at once, and two walkers never ring the same contact', async () => {
    await setUp(1);
    const { queueId } = await parallelQueue([
      '5550101011',
      '5550101021',
      '5550101031',
      '5550101041',
      '5550101051',
    ]);
    const walker = randomUUID();
    const answers = await Promise.all(Array.from({ length: 20 }, () => start(queueId, walker)));
    const rounds = new Set(answers.map((a) => a.round?.id));
    expect(rounds.size).toBe(1);
    const other = await start(queueId, randomUUID()).catch(() => null);
    const { rows } = await ctx.db.admin.query<{ contact_id: string; n: string }>(
      'select contact_id, count(*) as n from calls where queue_id = $1 and contact_id is not null group by contact_id',
      [queueId],
    );
    expect(rows.map((r) => Number(r.n))).toEqual([1, 1]);
    // The same rep has a round ringing: a second walker of theirs is refused, never a second set of lines.
    expect(other).toBeNull();
    expect(rows).toHaveLength(2);
    await send('POST', `/api/queues/${queueId}/parallel/pause`, { walker });
  });

  it('refuses a round in Power mode, a cap above the law, and another user’s queue', async () => {
    await setUp();
    const { queueId } = await parallelQueue(['5550101004']);
    const walker = randomUUID();
    await send('PUT', `/api/queues/${queueId}/dialing`, { mode: 'power', capPercent: null });
    const power = await send('POST', `/api/queues/${queueId}/parallel/round`, { walker });
    expect(power.statusCode).toBe(409);
    expect(power.json().message).toBe(
      'This queue dials in Power mode: switch it to Parallel to ring several lines.',
    );
    const tooHigh = await send('PUT', `/api/queues/${queueId}/dialing`, {
      mode: 'parallel',
      capPercent: 3.5,
    });
    expect(tooHigh.statusCode).toBe(400);
    expect(tooHigh.body).toContain("The cap cannot be above 3 % (the law's)");
    const lower = await send('PUT', `/api/queues/${queueId}/dialing`, { mode: 'parallel', capPercent: 1.5 });
    expect(lower.statusCode).toBe(200);
    expect((await state(queueId, walker)).capPercent).toBe(1.5);

    const stranger = await createAccount(ctx, 'user');
    for (const [method, url, payload] of [
      ['GET', `/api/queues/${queueId}/parallel?walker=${walker}`, undefined],
      ['PUT', `/api/queues/${queueId}/dialing`, { mode: 'power', capPercent: null }],
      ['POST', `/api/queues/${queueId}/parallel/round`, { walker }],
      ['POST', `/api/queues/${queueId}/parallel/pause`, { walker }],
    ] as const)
      expect((await send(method, url, payload, stranger)).statusCode, url).toBe(404);
    expect((await state(queueId, walker)).settings).toEqual({ mode: 'parallel', capPercent: 1.5 });
  });
});
