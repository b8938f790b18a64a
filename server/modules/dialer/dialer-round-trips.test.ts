import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParallelState } from '#domain/dialer/parallel-dialing.schema.ts';
import type { App } from '../../app.ts';
import type { SlowRequestReport } from '../../process/slow-request-trace.ts';
import { seedQueueHistory } from '../../test/calls-test-kit.ts';
import { insertContact } from '../../test/contact-factory.ts';
import {
  allowUnknownLocalTime,
  asCookie,
  buildSecondInstance,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';

/*
 * How many statements the dialer's busiest requests send to PostgreSQL. On a busy floor every statement is a turn
 * waiting for a CPU on each side (decision 048), so a request's latency grows with its round trips: a Parallel round
 * is taken every minute or two by each rep in Parallel mode, its state read every few seconds. Counted by the server's
 * own per-request trace (SLOW_REQUEST_LOG_MS at 0: every request reported with its statements).
 */

let ctx: TestContext;
let traced: App;
let rep: Session;
const reports: SlowRequestReport[] = [];

beforeAll(async () => {
  ctx = await createTestApp({ runJobs: false });
  // The simulator at real time: no line rings or answers while a request is in flight, so the counts are the
  // request's own.
  traced = await buildSecondInstance(ctx, {
    slowRequestLogMs: 0,
    reportSlowRequest: (slow) => reports.push(slow),
    telephony: { provider: 'simulator', timeScale: 1, timeoutMs: 2_000, bulkSpacingMs: 50 },
    runJobs: false,
  });
  rep = await createAccount(ctx, 'user');
  await allowUnknownLocalTime(ctx.app, rep);
});
afterAll(async () => {
  await traced.close();
  await ctx.close();
});

/** Sends a request to the traced instance; its answer and how many statements it sent. */
async function counted(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  reports.length = 0;
  const response = await traced.inject({
    method,
    url,
    headers: asCookie(rep),
    ...(payload !== undefined && { payload }),
  });
  expect(response.statusCode, response.body).toBeLessThan(300);
  const report = reports.find((r) => r.method === method);
  if (!report) throw new Error(`no trace of ${method} ${url}`);
  return { body: response.json(), statements: report.statements };
}

/** A Parallel queue of `size` contacts whose history (a quarter of 400 dials reached a person: room under the cap) asks for 4 lines. */
async function parallelQueue(size: number) {
  const ids = [];
  for (let i = 0; i < size; i++)
    ids.push((await insertContact(ctx.app, rep, { firstName: `Line${i}`, phone: `+1555010${i}1` })).id);
  const queueId = (await counted('POST', '/api/queues', { name: 'Round trips', selection: { ids } })).body
    .queue.id as string;
  await counted('PUT', `/api/queues/${queueId}/dialing`, { mode: 'parallel', capPercent: null });
  await seedQueueHistory(ctx.db.admin, queueId, 100, ctx.clock.now(), 4);
  return queueId;
}

describe('the dialer’s statements per request', () => {
  it('a Parallel round: a fixed number for the round, and only its answer from the provider per line', async () => {
    const queueId = await parallelQueue(10);
    const walker = randomUUID();
    const { body, statements } = await counted('POST', `/api/queues/${queueId}/parallel/round`, { walker });
    const lines = (body as ParallelState).round!.lines.length;
    expect(lines).toBe(4);
    // Session, the round's transaction (queue, pacing, look-ahead and consent, holds, round and calls in one
    // statement each), each line's answer in a transaction of its own (3), the state that answers (6). It was 53
    // for four lines: the pacing in two statements (read twice), the queue three times, a hold, a caller ID and a
    // call inserted per line.
    expect(statements).toBeLessThanOrEqual(26 + 3 * lines);
  });

  it('the walker’s state, read every few seconds while a round rings: six statements', async () => {
    const queueId = await parallelQueue(3);
    const walker = randomUUID();
    const { statements } = await counted('GET', `/api/queues/${queueId}/parallel?walker=${walker}`);
    // Session, begin, the queue with its settings, the latest round with its lines, the pacing, commit (it was 8).
    expect(statements).toBe(6);
  });

  it('a power walk step: the queue and the holds elsewhere read together', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++)
      ids.push((await insertContact(ctx.app, rep, { firstName: `Walk${i}`, phone: `+1555011${i}1` })).id);
    const queueId = (await counted('POST', '/api/queues', { name: 'Walked', selection: { ids } })).body.queue
      .id as string;
    const { body, statements } = await counted('POST', `/api/queues/${queueId}/walk`, {
      walker: randomUUID(),
    });
    expect(body.contact.id).toBe(ids[0]);
    // Session, begin, the queue locked, this walker's hold, waking members whose wait is over, the consent gate's
    // settings, the look-ahead, the gate's facts and recent abandonments, the hold, who waits, the queue with the holds
    // elsewhere, commit (it was 14: the holds elsewhere counted on their own).
    expect(statements).toBe(13);
  });
});
