import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_FILL_INLINE_MAX, QUEUE_MESSAGES } from '#domain/contacts/queue.schema.ts';
import {
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
  allowUnknownLocalTime,
} from '../../test/test-app.ts';
import { runQueueFillStep } from './queue-fill.ts';

/** A selection too large to add in the request joins the queue in the background, on the job queue. */
let ctx: TestContext;
let owner: Session;
const MANY = QUEUE_FILL_INLINE_MAX + 1_500;

beforeAll(async () => {
  ctx = await createTestApp();
  owner = await createAccount(ctx, 'user');
  await allowUnknownLocalTime(ctx.app, owner);
  await ctx.db.admin.query(
    `insert into contacts (user_id, first_name, last_name, email, phone)
     select $1, 'Fill' || lpad(g::text, 5, '0'), 'Many', 'fill' || g || '@example.com', '555' || lpad(g::text, 7, '0')
     from generate_series(1, ${MANY}) g`,
    [owner.userId],
  );
});
afterAll(() => ctx.close());

const send = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: asCookie(owner), ...(payload !== undefined && { payload }) });
const filled = async (id: string) => {
  const until = Date.now() + 15_000;
  for (;;) {
    const queue = (await send('GET', `/api/queues/${id}`)).json().queue;
    if (!queue.filling || Date.now() > until) return queue;
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('large selections join a queue in the background', () => {
  it('answers at once with the queue filling, then holds every matching contact once, in name order', async () => {
    const response = await send('POST', '/api/queues', { name: 'Everyone', selection: { allMatching: {} } });
    expect(response.statusCode).toBe(201);
    const created = response.json().queue;
    expect(created.filling).toMatchObject({ expected: MANY, error: null });
    const done = await filled(created.id);
    expect(done).toMatchObject({ total: MANY, completed: 0, filling: null });
    const order = await ctx.db.admin.query<{ ok: boolean }>(
      `select bool_and(ordered) as ok from (
         select c.name_sort >= lag(c.name_sort) over (order by m.position) as ordered
         from queue_members m join contacts c on c.id = m.contact_id where m.queue_id = $1) x`,
      [created.id],
    );
    expect(order.rows[0]!.ok).toBe(true);

    // The walk calls from it like any other queue.
    const walk = await send('POST', `/api/queues/${created.id}/walk`, { walker: crypto.randomUUID() });
    expect(walk.statusCode).toBe(200);
    expect(walk.json().contact.firstName).toBe('Fill00001');
  });

  it('adds a large selection to an existing queue in the background, counting what was already there', async () => {
    const small = await send('POST', '/api/queues', {
      name: 'Everyone later',
      selection: { allMatching: { search: 'Fill00002' } },
    });
    expect(small.json().queue.filling).toBeNull();
    const id = small.json().queue.id;
    const added = await send('POST', `/api/queues/${id}/members`, { allMatching: {} });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toEqual({ added: 0, alreadyInQueue: 0, adding: MANY });
    const done = await filled(id);
    expect(done).toMatchObject({ total: MANY, filling: null }); // Fill00002 was there already: not twice
  });

  it('runs one fill at a time when fifty large adds to a queue arrive at once, adding nobody twice', async () => {
    const queue = (
      await send('POST', '/api/queues', {
        name: 'Crowd',
        selection: { allMatching: { search: 'Fill00004' } },
      })
    ).json().queue;
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        send('POST', `/api/queues/${queue.id}/members`, { allMatching: {} }).then((r) => r.statusCode),
      ),
    );
    // One fill at a time: each add is taken only when no fill is running (a late one, after the first fill ended,
    // may start another, which adds nothing new); the others are refused. Nobody joins twice, nothing is stuck.
    expect(answers.filter((s) => s !== 200 && s !== 409)).toEqual([]);
    expect(answers.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(await filled(queue.id)).toMatchObject({ total: MANY, filling: null });
  });

  it('refuses a second background selection while one is still joining, and changes nothing', async () => {
    const queue = (
      await send('POST', '/api/queues', { name: 'Busy', selection: { allMatching: { search: 'Fill00003' } } })
    ).json().queue;
    // As if a fill were still running.
    await ctx.db.admin.query(
      `update power_dialer_queues set fill_selection = '{"allMatching":{"tag":"nothing"}}', fill_expected = 1 where id = $1`,
      [queue.id],
    );
    const refused = await send('POST', `/api/queues/${queue.id}/members`, { allMatching: {} });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(QUEUE_MESSAGES.stillFilling);
    const after = (await send('GET', `/api/queues/${queue.id}`)).json().queue;
    expect(after).toMatchObject({ total: 1, filling: { expected: 1 } });
  });

  it('adds nothing twice when a fill step runs again from an old position, and stops for a deleted queue', async () => {
    const queue = (
      await send('POST', '/api/queues', { name: 'Again', selection: { allMatching: {} } })
    ).json().queue;
    await filled(queue.id);
    // As after a crash between adding a chunk and the job's own bookkeeping: the fill is asked again from the start.
    await ctx.db.admin.query(
      `update power_dialer_queues set fill_selection = '{"allMatching":{}}', fill_asked_at = now(), fill_added = 0
       where id = $1`,
      [queue.id],
    );
    expect(await runQueueFillStep(ctx.app.ctx.db, queue.id, owner.userId)).toBe('done');
    expect((await send('GET', `/api/queues/${queue.id}`)).json().queue).toMatchObject({
      total: MANY,
      filling: null,
    });

    await ctx.db.admin.query(`delete from power_dialer_queues where id = $1`, [queue.id]);
    expect(await runQueueFillStep(ctx.app.ctx.db, queue.id, owner.userId)).toBe('gone');
  });
});
