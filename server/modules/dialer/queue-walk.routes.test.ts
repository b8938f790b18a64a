import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newRequestId } from '#domain/calls/call-guard.ts';
import { CLAIM_STALE_AFTER_MS } from '#domain/dialer/queue-walk.ts';
import { insertContact } from '../../test/contact-factory.ts';
import {
  asCookie,
  buildSecondInstance,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
  allowUnknownLocalTime,
} from '../../test/test-app.ts';

type Step = {
  queue: { id: string; total: number; completed: number };
  contact: { id: string; firstName: string } | null;
  skipped: { contactId: string; name: string; reason: string; text: string }[];
  heldElsewhere: number;
};

let ctx: TestContext;
let rep: Session;

beforeEach(async () => {
  ctx = await createTestApp();
  rep = await createAccount(ctx, 'user');
  await allowUnknownLocalTime(ctx.app, rep);
});
afterEach(() => ctx.close());

const send = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, who = rep) =>
  ctx.app.inject({ method, url, headers: asCookie(who), ...(payload !== undefined && { payload }) });

/** Contacts with distinct numbers (the duplicate-call guard looks at numbers), in the order given. */
async function contacts(names: string[], phones: (string | null | undefined)[] = [], who = rep) {
  const made = [];
  for (const [i, name] of names.entries())
    made.push(
      await insertContact(ctx.app, who, {
        firstName: name,
        phone: phones[i] === undefined ? `555010${String(1000 + i).slice(-4)}` : phones[i],
      }),
    );
  return made;
}
async function queueOf(ids: string[], who = rep) {
  const response = await send('POST', '/api/queues', { name: 'Walk', selection: { ids } }, who);
  expect(response.statusCode).toBe(201);
  return response.json<{ queue: { id: string } }>().queue.id;
}
const walk = async (queueId: string, walker: string) => {
  const response = await send('POST', `/api/queues/${queueId}/walk`, { walker });
  expect(response.statusCode).toBe(200);
  return response.json<Step>();
};
const dispose = (queueId: string | undefined, contactId: string, extra: object = {}) =>
  send('POST', '/api/dispositions', { contactId, disposition: 'no-answer', queueId, ...extra });

describe('walking a call queue', () => {
  it('serves contacts in queue order, skips those without a phone or on the do-not-call list with the reason, and completes each on its disposition', async () => {
    const [ann, noPhone, bob, banned, cy] = await contacts(
      ['Ann', 'Nophone', 'Bob', 'Banned', 'Cy'],
      [undefined, null, undefined, '5550109999', undefined],
    );
    await ctx.db.admin.query(`insert into do_not_call (user_id, number_e164) values ($1, '+15550109999')`, [
      rep.userId,
    ]);
    const queueId = await queueOf([ann!.id, noPhone!.id, bob!.id, banned!.id, cy!.id]);
    const walker = randomUUID();

    const first = await walk(queueId, walker);
    expect(first.contact?.id).toBe(ann!.id);
    expect(first.queue).toMatchObject({ total: 5, completed: 0 });
    // Asking again (a reload) gives the same contact: it is held for this walker.
    expect((await walk(queueId, walker)).contact?.id).toBe(ann!.id);

    expect((await dispose(queueId, ann!.id)).json().disposition.queueId).toBe(queueId);
    const second = await walk(queueId, walker);
    expect(second.contact?.id).toBe(bob!.id);
    expect(second.skipped).toEqual([
      { contactId: noPhone!.id, name: 'Nophone Lovelace', reason: 'no-phone', text: 'No phone number' },
    ]);
    expect(second.queue).toMatchObject({ total: 5, completed: 2 });

    await dispose(queueId, bob!.id);
    const third = await walk(queueId, walker);
    expect(third.contact?.id).toBe(cy!.id);
    expect(third.skipped.map((s) => s.reason)).toEqual(['do-not-call']);
    expect(third.skipped[0]!.text).toMatch(/^On your do-not-call list since \d\d\/\d\d\/\d{4}$/);

    await dispose(queueId, cy!.id);
    const done = await walk(queueId, walker);
    expect(done.contact).toBeNull();
    expect(done.queue).toMatchObject({ total: 5, completed: 5 });
    const stored = await ctx.db.admin.query(
      'select last_contact_index, total_count, completed_count from power_dialer_queues where id = $1',
      [queueId],
    );
    expect(stored.rows[0]).toEqual({ last_contact_index: 0, total_count: 5, completed_count: 5 });

    // Start over opens every contact again.
    const restarted = await send('POST', `/api/queues/${queueId}/restart`);
    expect(restarted.json().queue).toMatchObject({ total: 5, completed: 0 });
    expect((await walk(queueId, walker)).contact?.id).toBe(ann!.id);
  });

  it('never gives the same contact to two walkers, even asked fifty times at once', async () => {
    const people = await contacts(Array.from({ length: 10 }, (_, i) => `P${i}`));
    const queueId = await queueOf(people.map((p) => p.id));
    const steps = await Promise.all(Array.from({ length: 50 }, () => walk(queueId, randomUUID())));
    const served = steps.flatMap((s) => (s.contact ? [s.contact.id] : []));
    expect(served).toHaveLength(10);
    expect(new Set(served).size).toBe(10);
    expect(steps.filter((s) => !s.contact).every((s) => s.heldElsewhere === 10)).toBe(true);
  });

  it('a walk step does not wait for a transaction that is still adding members to the queue (a fill chunk, an import)', async () => {
    const people = await contacts(['Ann']);
    const queueId = await queueOf([people[0]!.id]);
    // A fill chunk's insert, while it runs, holds what its members' foreign key takes: a key-share lock on the
    // queue's row (its counts are written only as the statement ends, just before it commits).
    const adding = await ctx.db.admin.connect();
    try {
      await adding.query('begin');
      await adding.query('select 1 from power_dialer_queues where id = $1 for key share', [queueId]);
      const answered = await Promise.race([
        walk(queueId, randomUUID()).then((step) => step.contact?.id),
        new Promise((resolve) => setTimeout(() => resolve('still waiting after 3 s'), 3000)),
      ]);
      expect(answered).toBe(people[0]!.id);
    } finally {
      await adding.query('rollback');
      adding.release();
    }
  });

  it('two server instances on one database never hand out the same contact either', async () => {
    const second = await buildSecondInstance(ctx);
    try {
      const people = await contacts(Array.from({ length: 6 }, (_, i) => `I${i}`));
      const queueId = await queueOf(people.map((p) => p.id));
      const steps = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? second : ctx.app).inject({
            method: 'POST',
            url: `/api/queues/${queueId}/walk`,
            headers: asCookie(rep),
            payload: { walker: randomUUID() },
          }),
        ),
      );
      expect(steps.every((s) => s.statusCode === 200)).toBe(true);
      const served = steps.flatMap((s) => s.json<Step>().contact?.id ?? []);
      expect(served).toHaveLength(6);
      expect(new Set(served).size).toBe(6);
    } finally {
      await second.close();
    }
  });

  it('Save & Exit lets go of the contact and keeps the progress: another device resumes where the walk stopped', async () => {
    const [ann, bob, cy] = await contacts(['Ann', 'Bob', 'Cy']);
    const queueId = await queueOf([ann!.id, bob!.id, cy!.id]);
    const laptop = randomUUID();
    await walk(queueId, laptop);
    await dispose(queueId, ann!.id);
    expect((await walk(queueId, laptop)).contact?.id).toBe(bob!.id);

    const saved = await send('POST', `/api/queues/${queueId}/walk/release`, { walker: laptop });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().queue).toMatchObject({ total: 3, completed: 1 });
    const phone = await walk(queueId, randomUUID());
    expect(phone.contact?.id).toBe(bob!.id);
    expect(phone.heldElsewhere).toBe(0);
  });

  it('a contact held by a walker that went quiet is taken by another after the hold goes stale', async () => {
    const [ann, bob] = await contacts(['Ann', 'Bob']);
    const queueId = await queueOf([ann!.id, bob!.id]);
    const closedTab = randomUUID();
    expect((await walk(queueId, closedTab)).contact?.id).toBe(ann!.id);
    expect((await walk(queueId, randomUUID())).contact?.id).toBe(bob!.id);
    ctx.clock.advance(CLAIM_STALE_AFTER_MS + 1000);
    expect((await walk(queueId, randomUUID())).contact?.id).toBe(ann!.id);
  });

  it('Mark as Completed completes without a disposition and serves the next', async () => {
    const [ann, bob] = await contacts(['Ann', 'Bob']);
    const queueId = await queueOf([ann!.id, bob!.id]);
    const walker = randomUUID();
    await walk(queueId, walker);
    const next = await send('POST', `/api/queues/${queueId}/walk/complete`, { walker, contactId: ann!.id });
    expect(next.json<Step>().contact?.id).toBe(bob!.id);
    expect(next.json<Step>().queue.completed).toBe(1);
    const dispositions = await ctx.db.admin.query('select count(*)::int as n from call_dispositions');
    expect(dispositions.rows[0].n).toBe(0);
  });

  it('calls made from a queue carry its id, and the call keeps the notes saved with its disposition', async () => {
    const [ann] = await contacts(['Ann']);
    const queueId = await queueOf([ann!.id]);
    const placed = await send('POST', '/api/calls', {
      requestId: newRequestId(),
      contactId: ann!.id,
      queueId,
    });
    expect(placed.statusCode).toBe(201);
    const callId = placed.json().call.id;
    await dispose(queueId, ann!.id, { callId, notes: 'Wants a demo on Friday' });
    const row = await ctx.db.admin.query('select queue_id, notes from calls where id = $1', [callId]);
    expect(row.rows[0]).toEqual({ queue_id: queueId, notes: 'Wants a demo on Friday' });
  });

  it('a queue deleted mid-walk: the disposition is still saved (without it) and the walk answers Queue not found', async () => {
    const [ann, bob] = await contacts(['Ann', 'Bob']);
    const queueId = await queueOf([ann!.id, bob!.id]);
    const walker = randomUUID();
    await walk(queueId, walker);
    expect((await send('DELETE', `/api/queues/${queueId}`)).statusCode).toBe(204);
    const saved = await dispose(queueId, ann!.id);
    expect(saved.statusCode).toBe(201);
    expect(saved.json().disposition.queueId).toBeNull();
    const gone = await send('POST', `/api/queues/${queueId}/walk`, { walker });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe('Queue not found');
    const call = await send('POST', '/api/calls', { requestId: newRequestId(), contactId: bob!.id, queueId });
    expect(call.statusCode).toBe(404);
  });

  it('another user’s queue is not found for every walk step, and nothing of it changes', async () => {
    const other = await createAccount(ctx, 'user');
    const [theirs] = await contacts(['Theirs'], [], other);
    const theirQueue = await queueOf([theirs!.id], other);
    const [mine] = await contacts(['Mine']);
    const walker = randomUUID();
    for (const [url, body] of [
      [`/api/queues/${theirQueue}/walk`, { walker }],
      [`/api/queues/${theirQueue}/walk/complete`, { walker, contactId: theirs!.id }],
      [`/api/queues/${theirQueue}/walk/release`, { walker }],
      [`/api/queues/${theirQueue}/restart`, undefined],
    ] as const) {
      const response = await send('POST', url, body);
      expect(response.statusCode, url).toBe(404);
    }
    const saved = await dispose(theirQueue, mine!.id);
    expect(saved.json().disposition.queueId).toBeNull();
    const call = await send('POST', '/api/calls', {
      requestId: newRequestId(),
      contactId: mine!.id,
      queueId: theirQueue,
    });
    expect(call.statusCode).toBe(404);
    const members = await ctx.db.admin.query(
      'select completed, claimed_by from queue_members where queue_id = $1',
      [theirQueue],
    );
    expect(members.rows).toEqual([{ completed: false, claimed_by: null }]);
  });

  it('the counts follow members added, removed and deleted with their contact', async () => {
    const people = await contacts(['A', 'B', 'C']);
    const queueId = await queueOf([people[0]!.id]);
    await send('POST', `/api/queues/${queueId}/members`, { ids: people.map((p) => p.id) });
    await dispose(queueId, people[0]!.id);
    await send('POST', `/api/queues/${queueId}/members/remove`, { ids: [people[1]!.id] });
    await send('DELETE', `/api/contacts/${people[0]!.id}`);
    const summary = (await send('GET', `/api/queues/${queueId}`)).json().queue;
    const truth = await ctx.db.admin.query(
      'select count(*)::int as total, (count(*) filter (where completed))::int as completed from queue_members where queue_id = $1',
      [queueId],
    );
    expect(summary).toMatchObject(truth.rows[0]);
    expect(summary).toMatchObject({ total: 1, completed: 0 });
  });
});
