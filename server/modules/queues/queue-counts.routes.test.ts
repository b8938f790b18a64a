import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { DEFAULT_QUEUE_NAME } from '#domain/contacts/queue.schema.ts';
import { buildContact, insertContact } from '../../test/contact-factory.ts';
import {
  allowUnknownLocalTime,
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';

type Summary = { id: string; name: string; total: number; completed: number };

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const send = (who: Session, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: asCookie(who), ...(payload !== undefined && { payload }) });

async function defaultQueue(who: Session): Promise<Summary> {
  const queues = (await send(who, 'GET', '/api/queues')).json<{ queues: Summary[] }>().queues;
  const queue = queues.find((q) => q.name === DEFAULT_QUEUE_NAME);
  if (!queue) throw new Error('no default queue');
  return queue;
}
const stored = async (queueId: string) =>
  (
    await ctx.db.admin.query<{ total_count: number; completed_count: number; aside: number }>(
      `select total_count, completed_count, (select count(*)::int from queue_count_changes where queue_id = q.id) as aside
       from power_dialer_queues q where id = $1`,
      [queueId],
    )
  ).rows[0];
const members = async (queueId: string) =>
  Number(
    (await ctx.db.admin.query('select count(*) from queue_members where queue_id = $1', [queueId])).rows[0]
      .count,
  );

describe("a queue's counts (migration 0055)", () => {
  it('a contact saved while another transaction holds its queue is saved at once, counted, and folded in later', async () => {
    const owner = await createAccount(ctx, 'user');
    await insertContact(ctx.app, owner);
    const queue = await defaultQueue(owner);
    expect(queue.total).toBe(1);

    const holder = await ctx.db.admin.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from power_dialer_queues where id = $1 for no key update', [queue.id]);
      const saved = await Promise.race([
        send(owner, 'POST', '/api/contacts', buildContact()).then((r) => r.statusCode),
        new Promise((resolve) => setTimeout(() => resolve('still waiting after 3 s'), 3000)),
      ]);
      expect(saved).toBe(201);
      // The change waits aside, and the queue's readers already count it.
      expect(await stored(queue.id)).toEqual({ total_count: 1, completed_count: 0, aside: 1 });
      expect((await defaultQueue(owner)).total).toBe(2);
    } finally {
      await holder.query('commit');
      holder.release();
    }

    // The next change that finds the queue free takes what was left aside with it.
    await insertContact(ctx.app, owner);
    expect(await stored(queue.id)).toEqual({ total_count: 3, completed_count: 0, aside: 0 });
    expect((await defaultQueue(owner)).total).toBe(3);
  });

  it('fifty contacts saved at once and twenty then deleted at once: every change counted once', async () => {
    const owner = await createAccount(ctx, 'user');
    const created = await Promise.all(
      Array.from({ length: 50 }, () => send(owner, 'POST', '/api/contacts', buildContact())),
    );
    expect(created.map((r) => r.statusCode)).toEqual(Array(50).fill(201));
    const queue = await defaultQueue(owner);
    expect(queue.total).toBe(50);
    expect(queue.total).toBe(await members(queue.id));

    const ids = created.slice(0, 20).map((r) => r.json<{ contact: { id: string } }>().contact.id);
    const deleted = await Promise.all(ids.map((id) => send(owner, 'DELETE', `/api/contacts/${id}`)));
    expect(deleted.every((r) => r.statusCode < 300)).toBe(true);
    expect((await defaultQueue(owner)).total).toBe(30);
    expect(await members(queue.id)).toBe(30);
  });

  it('a disposition in the queue folds the changes left aside into the stored counts, and counts as completed', async () => {
    const owner = await createAccount(ctx, 'user');
    await allowUnknownLocalTime(ctx.app, owner);
    await insertContact(ctx.app, owner, { phone: '5550101001' });
    await insertContact(ctx.app, owner, { phone: '5550101002' });
    const queue = await defaultQueue(owner);

    const holder = await ctx.db.admin.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from power_dialer_queues where id = $1 for no key update', [queue.id]);
      expect(
        (await send(owner, 'POST', '/api/contacts', buildContact({ phone: '5550101003' }))).statusCode,
      ).toBe(201);
      expect((await stored(queue.id))!.aside).toBe(1);
    } finally {
      await holder.query('commit');
      holder.release();
    }

    const step = await send(owner, 'POST', `/api/queues/${queue.id}/walk`, { walker: randomUUID() });
    expect(step.statusCode).toBe(200);
    expect(step.json<{ queue: Summary }>().queue).toMatchObject({ total: 3, completed: 0 });

    const contactId = step.json<{ contact: { id: string } }>().contact.id;
    const disposed = await send(owner, 'POST', '/api/dispositions', {
      contactId,
      disposition: 'no-answer',
      queueId: queue.id,
    });
    expect(disposed.statusCode).toBeLessThan(300);
    expect(await stored(queue.id)).toEqual({ total_count: 3, completed_count: 1, aside: 0 });
    expect(await defaultQueue(owner)).toMatchObject({ total: 3, completed: 1 });
  });

  it('a change aside written under another user is not counted in the queue (row security on the changes)', async () => {
    const owner = await createAccount(ctx, 'user');
    const other = await createAccount(ctx, 'user');
    await insertContact(ctx.app, owner);
    const queue = await defaultQueue(owner);
    await ctx.db.admin.query(
      'insert into queue_count_changes (queue_id, user_id, total, completed) values ($1, $2, 5, 0)',
      [queue.id, other.userId],
    );
    expect((await defaultQueue(owner)).total).toBe(1);
  });
});
