import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_QUEUE_NAME } from '#domain/contacts/queue.schema.ts';
import { insertContact } from '../../test/contact-factory.ts';
import {
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';

type Summary = { id: string; queueId: string; name: string; total: number; completed: number };

let ctx: TestContext;
let owner: Session;
let other: Session;
let mine: { id: string }[];
let theirs: { id: string };

beforeAll(async () => {
  ctx = await createTestApp();
  owner = await createAccount(ctx, 'user');
  other = await createAccount(ctx, 'user');
  mine = [];
  for (let i = 0; i < 5; i++)
    mine.push(await insertContact(ctx.app, owner, { tags: i < 2 ? ['vip'] : [], firstName: `Q${i}` }));
  theirs = await insertContact(ctx.app, other);
});
afterAll(() => ctx.close());

const send = (who: Session, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: asCookie(who), ...(payload !== undefined && { payload }) });

const create = async (name: string, selection: unknown, who = owner) =>
  send(who, 'POST', '/api/queues', { name, selection });
const queueCount = async (userId: string) =>
  Number(
    (await ctx.db.admin.query('select count(*) from power_dialer_queues where user_id = $1', [userId]))
      .rows[0].count,
  );

describe('call queues', () => {
  it('creates a queue from ticked contacts, ignoring another user’s, with a generated id and a trimmed name', async () => {
    const response = await create('  Monday calls ', { ids: [mine[0]!.id, mine[1]!.id, theirs.id] });
    expect(response.statusCode).toBe(201);
    const queue = response.json<{ queue: Summary }>().queue;
    expect(queue).toMatchObject({ name: 'Monday calls', total: 2, completed: 0 });
    expect(queue.queueId).toMatch(/^queue-[0-9a-f-]{36}$/);

    const list = (await send(owner, 'GET', '/api/queues')).json<{ queues: Summary[] }>().queues;
    expect(list.map((q) => q.name)).toEqual(expect.arrayContaining(['Monday calls', DEFAULT_QUEUE_NAME]));
    expect((await send(owner, 'GET', `/api/queues/${queue.id}`)).json()).toEqual({ queue });
  });

  it('creates a queue from every contact matching a filter', async () => {
    const response = await create('VIPs', { allMatching: { tag: 'vip' } });
    expect(response.statusCode).toBe(201);
    expect(response.json<{ queue: Summary }>().queue.total).toBe(2);
  });

  it('refuses an empty name or no contacts with the spec’s words, and creates nothing', async () => {
    const before = await queueCount(owner.userId);
    const unnamed = await create('   ', { ids: [mine[0]!.id] });
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json().issues[0].message).toBe('Please provide a name for your queue');
    const empty = await create('Empty', { ids: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().issues[0].message).toBe('Please select at least one contact for your queue');
    const foreign = await create('Not mine', { ids: [theirs.id] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe('Please select at least one contact for your queue');
    const nothingMatches = await create('Nobody', { allMatching: { tag: 'no-such-tag' } });
    expect(nothingMatches.statusCode).toBe(400);
    expect(await queueCount(owner.userId)).toBe(before);
  });

  it('lists a queue’s contacts in queue order, a page at a time', async () => {
    const queue = (await create('Paged', { ids: mine.map((c) => c.id) })).json<{ queue: Summary }>().queue;
    const first = (await send(owner, 'GET', `/api/queues/${queue.id}/members?limit=2`)).json<{
      members: { contactId: string; completed: boolean }[];
      next: string | null;
    }>();
    expect(first.members.map((m) => m.contactId)).toEqual([mine[0]!.id, mine[1]!.id]);
    expect(first.members[0]!.completed).toBe(false);
    const rest = (
      await send(owner, 'GET', `/api/queues/${queue.id}/members?limit=10&after=${first.next}`)
    ).json<{
      members: { contactId: string }[];
      next: string | null;
    }>();
    expect(rest.members.map((m) => m.contactId)).toEqual(mine.slice(2).map((c) => c.id));
    expect(rest.next).toBeNull();
    expect((await send(owner, 'GET', `/api/queues/${queue.id}/members?after=x`)).statusCode).toBe(400);
    const found = (await send(owner, 'GET', `/api/queues/${queue.id}/members?search=Q3`)).json<{
      members: { contactId: string }[];
    }>();
    expect(found.members.map((m) => m.contactId)).toEqual([mine[3]!.id]);
  });

  it('renames, adds (ignoring contacts already there), removes and deletes; the contacts stay', async () => {
    const queue = (await create('Edit me', { ids: [mine[0]!.id] })).json<{ queue: Summary }>().queue;
    const renamed = await send(owner, 'PATCH', `/api/queues/${queue.id}`, { name: ' Renamed ' });
    expect(renamed.json<{ queue: Summary }>().queue.name).toBe('Renamed');
    expect((await send(owner, 'PATCH', `/api/queues/${queue.id}`, { name: '' })).statusCode).toBe(400);

    const added = await send(owner, 'POST', `/api/queues/${queue.id}/members`, {
      ids: [mine[0]!.id, mine[2]!.id],
    });
    expect(added.json()).toEqual({ added: 1, alreadyInQueue: 1, adding: 0 });
    const removed = await send(owner, 'POST', `/api/queues/${queue.id}/members/remove`, {
      ids: [mine[0]!.id, theirs.id],
    });
    expect(removed.json()).toEqual({ removed: 1 });
    expect((await send(owner, 'GET', `/api/queues/${queue.id}`)).json<{ queue: Summary }>().queue.total).toBe(
      1,
    );

    expect((await send(owner, 'DELETE', `/api/queues/${queue.id}`)).statusCode).toBe(204);
    expect((await send(owner, 'GET', `/api/queues/${queue.id}`)).statusCode).toBe(404);
    expect((await send(owner, 'GET', `/api/contacts/${mine[2]!.id}`)).statusCode).toBe(200);
    const left = await ctx.db.admin.query('select count(*) from queue_members where queue_id = $1', [
      queue.id,
    ]);
    expect(Number(left.rows[0].count)).toBe(0);
  });

  it('keeps the default queue: it cannot be renamed, emptied by hand or deleted', async () => {
    const list = (await send(owner, 'GET', '/api/queues')).json<{ queues: Summary[] }>().queues;
    const standard = list.find((q) => q.name === DEFAULT_QUEUE_NAME)!;
    expect((await send(owner, 'PATCH', `/api/queues/${standard.id}`, { name: 'Mine' })).statusCode).toBe(409);
    expect((await send(owner, 'DELETE', `/api/queues/${standard.id}`)).statusCode).toBe(409);
    const remove = await send(owner, 'POST', `/api/queues/${standard.id}/members/remove`, {
      ids: [mine[0]!.id],
    });
    expect(remove.statusCode).toBe(409);
    expect(
      (await send(owner, 'GET', `/api/queues/${standard.id}`)).json<{ queue: Summary }>().queue.total,
    ).toBe(5);
  });

  it('never shows or changes another user’s queue: 404, and it stays as it was', async () => {
    const queue = (await create('Private', { ids: [mine[0]!.id, mine[1]!.id] })).json<{ queue: Summary }>()
      .queue;
    expect((await send(other, 'GET', `/api/queues/${queue.id}`)).statusCode).toBe(404);
    expect((await send(other, 'GET', `/api/queues/${queue.id}/members`)).statusCode).toBe(404);
    expect((await send(other, 'PATCH', `/api/queues/${queue.id}`, { name: 'Taken' })).statusCode).toBe(404);
    expect(
      (await send(other, 'POST', `/api/queues/${queue.id}/members`, { ids: [theirs.id] })).statusCode,
    ).toBe(404);
    expect(
      (await send(other, 'POST', `/api/queues/${queue.id}/members/remove`, { ids: [mine[0]!.id] }))
        .statusCode,
    ).toBe(404);
    expect((await send(other, 'DELETE', `/api/queues/${queue.id}`)).statusCode).toBe(404);
    expect(
      (await send(owner, 'GET', `/api/queues/${queue.id}`)).json<{ queue: Summary }>().queue,
    ).toMatchObject({
      name: 'Private',
      total: 2,
    });
  });

  it('loses a contact deleted from the CRM, and counts what is left', async () => {
    const doomed = await insertContact(ctx.app, owner);
    const queue = (await create('Shrinks', { ids: [doomed.id, mine[3]!.id] })).json<{ queue: Summary }>()
      .queue;
    expect((await send(owner, 'DELETE', `/api/contacts/${doomed.id}`)).statusCode).toBe(204);
    expect((await send(owner, 'GET', `/api/queues/${queue.id}`)).json<{ queue: Summary }>().queue.total).toBe(
      1,
    );
  });
});

describe('Save Queue and the contact lookup', () => {
  it('saves the name, added and removed contacts together, and nothing when the result would be empty', async () => {
    const queue = (await create('Before', { ids: [mine[0]!.id, mine[1]!.id] })).json<{ queue: Summary }>()
      .queue;
    const saved = await send(owner, 'PATCH', `/api/queues/${queue.id}`, {
      name: 'After',
      add: { ids: [mine[2]!.id, theirs.id] },
      remove: [mine[0]!.id],
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json<{ queue: Summary }>().queue).toMatchObject({ name: 'After', total: 2 });

    const emptied = await send(owner, 'PATCH', `/api/queues/${queue.id}`, {
      name: 'Empty now',
      remove: [mine[1]!.id, mine[2]!.id],
    });
    expect(emptied.statusCode).toBe(400);
    expect(emptied.json().message).toBe('Please select at least one contact for your queue');
    expect(
      (await send(owner, 'GET', `/api/queues/${queue.id}`)).json<{ queue: Summary }>().queue,
    ).toMatchObject({
      name: 'After',
      total: 2,
    });
  });

  it('adds another queue’s contacts (ignoring those already there); another user’s queue is not found', async () => {
    const source = (await create('Source', { ids: [mine[0]!.id, mine[1]!.id] })).json<{ queue: Summary }>()
      .queue;
    const target = (await create('Target', { ids: [mine[1]!.id] })).json<{ queue: Summary }>().queue;
    const added = await send(owner, 'POST', `/api/queues/${target.id}/members/from-queue`, {
      sourceQueueId: source.id,
    });
    expect(added.json()).toEqual({ added: 1, alreadyInQueue: 1, adding: 0 });
    const theirQueue = (
      await send(other, 'POST', '/api/queues', { name: 'Theirs', selection: { ids: [theirs.id] } })
    ).json<{ queue: Summary }>().queue;
    const refused = await send(owner, 'POST', `/api/queues/${target.id}/members/from-queue`, {
      sourceQueueId: theirQueue.id,
    });
    expect(refused.statusCode).toBe(404);
    expect(
      (await send(owner, 'GET', `/api/queues/${target.id}`)).json<{ queue: Summary }>().queue.total,
    ).toBe(2);
  });

  it('looks contacts up by id in the order given, leaving out another user’s', async () => {
    const found = await send(owner, 'POST', '/api/contacts/lookup', {
      ids: [mine[3]!.id, theirs.id, mine[1]!.id],
    });
    expect(found.statusCode).toBe(200);
    expect(found.json<{ contacts: { id: string }[] }>().contacts.map((c) => c.id)).toEqual([
      mine[3]!.id,
      mine[1]!.id,
    ]);
    expect((await send(owner, 'POST', '/api/contacts/lookup', { ids: [] })).statusCode).toBe(400);
  });
});

describe('call queues under concurrent use', () => {
  it('takes fifty adds, removes and renames at once with a delete among them: no server error, no stray rows', async () => {
    const queue = (await create('Busy queue', { ids: [mine[0]!.id] })).json<{ queue: Summary }>().queue;
    const requests = Array.from({ length: 50 }, (_, i) => {
      const contact = mine[i % mine.length]!.id;
      if (i === 25) return send(owner, 'DELETE', `/api/queues/${queue.id}`);
      if (i % 3 === 0) return send(owner, 'POST', `/api/queues/${queue.id}/members`, { ids: [contact] });
      if (i % 3 === 1)
        return send(owner, 'POST', `/api/queues/${queue.id}/members/remove`, { ids: [contact] });
      return send(owner, 'PATCH', `/api/queues/${queue.id}`, { name: `Name ${i}` });
    });
    const answers = await Promise.all(requests);
    expect(answers.filter((a) => a.statusCode >= 500)).toEqual([]);
    // Whatever ran after the delete found nothing: the queue and its memberships are gone for good.
    expect((await send(owner, 'GET', `/api/queues/${queue.id}`)).statusCode).toBe(404);
    const left = await ctx.db.admin.query('select count(*) from queue_members where queue_id = $1', [
      queue.id,
    ]);
    expect(Number(left.rows[0].count)).toBe(0);
  });
});
