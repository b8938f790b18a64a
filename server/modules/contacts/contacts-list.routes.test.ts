import { beforeEach, afterEach, describe, expect, it } from 'vitest';
import { isQualified, needsAttention } from '#domain/contacts/contact-flags.ts';
import {
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';
import { insertContact } from '../../test/contact-factory.ts';

let ctx: TestContext;
let owner: Session;

beforeEach(async () => {
  ctx = await createTestApp();
  owner = await createAccount(ctx, 'user');
});
afterEach(() => ctx.close());

const list = async (query: string, as: Session = owner) => {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/contacts?${query}`,
    headers: asCookie(as),
  });
  expect(response.statusCode).toBe(200);
  return response.json<{
    contacts: {
      id: string;
      firstName: string;
      lastName: string;
      lastCallDate: string | null;
      needsAttention: boolean;
      isQualified: boolean;
    }[];
    hasPrevious: boolean;
    hasNext: boolean;
    firstCursor: string | null;
    lastCursor: string | null;
  }>();
};
const names = (page: { contacts: { firstName: string }[] }) => page.contacts.map((c) => c.firstName);
const dispose = (contactId: string, disposition: string, calledAt: string, isQualified = false) =>
  ctx.db.admin.query(
    `insert into call_dispositions (contact_id, user_id, disposition, called_at, is_qualified) values ($1, $2, $3, $4, $5)`,
    [contactId, owner.userId, disposition, calledAt, isQualified],
  );

describe('contact list', () => {
  it('filters by status, tag, cold leads only, and merges them', async () => {
    await insertContact(ctx.app, owner, { firstName: 'Anna', status: 'active', tags: ['vip'] });
    await insertContact(ctx.app, owner, { firstName: 'Bert', status: 'active' });
    await insertContact(ctx.app, owner, { firstName: 'Cleo', status: 'inactive', tags: ['vip'] });
    await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts/cold-leads',
      headers: asCookie(owner),
      payload: { company: 'Zeta' },
    });
    expect(names(await list('status=active')).sort()).toEqual(['Anna', 'Bert']);
    expect(names(await list('tag=vip')).sort()).toEqual(['Anna', 'Cleo']);
    expect(names(await list('tag=vip&status=active'))).toEqual(['Anna']);
    expect(names(await list('coldOnly=true'))).toEqual(['Cold Lead']);
    const tags = await ctx.app.inject({ method: 'GET', url: '/api/contacts/tags', headers: asCookie(owner) });
    expect(tags.json()).toEqual({ tags: ['vip'] });
  });

  it('searches by word start under 3 characters and anywhere from 3, across names, e-mail, company and phone digits', async () => {
    await insertContact(ctx.app, owner, {
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@navy.example',
      company: 'Navy',
      phone: '(212) 555-0199',
    });
    await insertContact(ctx.app, owner, {
      firstName: 'Alan',
      lastName: 'Turing',
      email: 'alan@bletchley.example',
      company: 'Bletchley Park',
      phone: '+44 20 7946 0000',
    });
    expect(names(await list('search=gr'))).toEqual(['Grace']);
    expect(names(await list('search=ra'))).toEqual([]); // prefix only: 'ra' is inside Grace, not at a start
    expect(names(await list('search=race'))).toEqual(['Grace']);
    expect(names(await list('search=BLETCH'))).toEqual(['Alan']);
    expect(names(await list('search=5550199'))).toEqual(['Grace']);
    expect(names(await list('search=21'))).toEqual(['Grace']);
    expect(names(await list('search=pa'))).toEqual(['Alan']); // a word of the company: Bletchley Park
    expect(names(await list('search=ex'))).toEqual([]); // not the e-mail's domain: grace@navy.example
    expect(names(await list(`search=${encodeURIComponent('(2')}`))).toEqual(['Grace']);
    expect(names(await list(`search=${encodeURIComponent('.*')}`))).toEqual([]);
    // Phone fragments, as typed or formatted, are searched by their digits.
    expect(names(await list('search=555-0199'))).toEqual(['Grace']);
    expect(names(await list(`search=${encodeURIComponent('(212) 555')}`))).toEqual(['Grace']);
    expect(names(await list(`search=${encodeURIComponent('+44 20')}`))).toEqual(['Alan']);
    expect(names(await list('search=100%25'))).toEqual([]);
  });

  it('sorts by name case-insensitively and by last call with missing dates first, toggling direction', async () => {
    const b = await insertContact(ctx.app, owner, { firstName: 'bob', lastName: 'B' });
    const a = await insertContact(ctx.app, owner, { firstName: 'Alice', lastName: 'A' });
    await insertContact(ctx.app, owner, { firstName: 'Carol', lastName: 'C' });
    expect(names(await list('sort=name&dir=asc'))).toEqual(['Alice', 'bob', 'Carol']);
    expect(names(await list('sort=name&dir=desc'))).toEqual(['Carol', 'bob', 'Alice']);
    await dispose(b.id, 'answered', '2026-11-01T10:00:00Z');
    await dispose(a.id, 'answered', '2026-11-10T10:00:00Z');
    expect(names(await list('sort=lastCallDate&dir=asc'))).toEqual(['Carol', 'bob', 'Alice']);
    expect(names(await list('sort=lastCallDate&dir=desc'))).toEqual(['Alice', 'bob', 'Carol']);
  });

  it('applies the last-called filter: never-called pass the day filters; never keeps only them', async () => {
    const recent = await insertContact(ctx.app, owner, { firstName: 'Recent' });
    const old = await insertContact(ctx.app, owner, { firstName: 'Old' });
    await insertContact(ctx.app, owner, { firstName: 'Never' });
    // The test clock reads 2026-11-21T09:00Z.
    await dispose(recent.id, 'answered', '2026-11-19T09:00:00Z');
    await dispose(old.id, 'answered', '2026-10-01T09:00:00Z');
    expect(names(await list('lastCalled=7days')).sort()).toEqual(['Never', 'Old']);
    expect(names(await list('lastCalled=90days')).sort()).toEqual(['Never']);
    expect(names(await list('lastCalled=30days')).sort()).toEqual(['Never', 'Old']);
    expect(names(await list('lastCalled=never'))).toEqual(['Never']);
  });

  it('pages by 100: neighbours by cursor, the last page from the end, early pages by offset', async () => {
    await ctx.db.admin.query(
      `insert into contacts (user_id, first_name, last_name, email) select $1, 'P' || lpad(g::text, 3, '0'), 'X', 'p' || g || '@example.com' from generate_series(1, 250) g`,
      [owner.userId],
    );
    const range = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => `P${String(from + i).padStart(3, '0')}`);
    const first = await list('sort=name&dir=asc&page=1');
    expect(names(first)).toEqual(range(1, 100));
    expect(first).toMatchObject({ hasPrevious: false, hasNext: true, page: 1, pageSize: 100 });
    const second = await list(`sort=name&dir=asc&page=2&after=${first.lastCursor}`);
    expect(names(second)).toEqual(range(101, 200));
    expect(second).toMatchObject({ hasPrevious: true, hasNext: true });
    const third = await list(`sort=name&dir=asc&page=3&after=${second.lastCursor}`);
    expect(names(third)).toEqual(range(201, 250));
    expect(third).toMatchObject({ hasPrevious: true, hasNext: false });
    const back = await list(`sort=name&dir=asc&page=2&before=${third.firstCursor}`);
    expect(names(back)).toEqual(range(101, 200));
    expect(back).toMatchObject({ hasPrevious: true, hasNext: true });
    const last = await list('sort=name&dir=asc&page=3&fromEnd=50');
    expect(names(last)).toEqual(range(201, 250));
    expect(last).toMatchObject({ hasPrevious: true, hasNext: false });
    expect(names(await list('sort=name&dir=desc&page=2'))[0]).toBe('P150');
    expect((await list('page=4')).contacts).toEqual([]);
  });

  it('walks every contact exactly once by cursor, even when many share a sort key', async () => {
    await ctx.db.admin.query(
      `insert into contacts (user_id, first_name, last_name, email, created_at) select $1, 'Same', 'Name', 's' || g || '@example.com', '2026-11-01T00:00:00Z' from generate_series(1, 230) g`,
      [owner.userId],
    );
    for (const [sort, dir] of [
      ['lastCallDate', 'desc'],
      ['name', 'asc'],
      ['createdAt', 'desc'],
    ] as const) {
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 1; page <= 3; page++) {
        const result = await list(`sort=${sort}&dir=${dir}${cursor ? `&after=${cursor}` : ''}`);
        seen.push(...result.contacts.map((c) => c.id));
        cursor = result.lastCursor;
        expect(result.hasNext).toBe(page < 3);
      }
      expect(new Set(seen).size).toBe(230);
      const backwards: string[] = [];
      let before: string | null = null;
      for (let page = 3; page >= 1; page--) {
        const result = await list(
          before ? `sort=${sort}&dir=${dir}&before=${before}` : `sort=${sort}&dir=${dir}&fromEnd=30`,
        );
        backwards.unshift(...result.contacts.map((c) => c.id));
        before = result.firstCursor;
        expect(result.hasPrevious).toBe(page > 1);
      }
      expect(backwards).toEqual(seen);
    }
  });

  it('refuses cursors that are malformed, made for another sort, or combined, with a 400', async () => {
    await insertContact(ctx.app, owner, { firstName: 'Only' });
    const page = await list('sort=name&dir=asc');
    const bad = async (query: string) => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: `/api/contacts?${query}`,
        headers: asCookie(owner),
      });
      expect({ query, status: response.statusCode }).toEqual({ query, status: 400 });
      expect(response.json().code).toBe('VALIDATION_FAILED');
    };
    const forged = (key: string) =>
      Buffer.from(JSON.stringify(['createdAt', key, '00000000-0000-4000-8000-000000000000'])).toString(
        'base64url',
      );
    await bad(`sort=createdAt&after=${page.lastCursor}`);
    await bad('after=not-a-cursor');
    await bad(`after=${forged('2026-13-40 10:00:00+00')}`);
    await bad(`after=${forged("2026-11-01'; drop table contacts; --")}`);
    await bad(`sort=name&after=${page.lastCursor}&before=${page.lastCursor}`);
    await bad('fromEnd=101');
    expect((await list(`sort=createdAt&after=${forged('2026-11-01 10:00:00.123456+00')}`)).contacts).toEqual(
      [],
    );
  });

  it('counts exactly up to the limit and estimates beyond it, saying so', async () => {
    await ctx.db.admin.query(
      `insert into contacts (user_id, first_name, last_name, email, status) select $1, 'Bulk', 'X', 'b' || g || '@example.com', 'contacted' from generate_series(1, 10050) g`,
      [owner.userId],
    );
    await insertContact(ctx.app, owner, { firstName: 'Act', status: 'active' });
    const counts = (
      await ctx.app.inject({ method: 'GET', url: '/api/contacts/counts', headers: asCookie(owner) })
    ).json();
    expect(counts.all.estimate).toBe(true);
    expect(counts.all.count).toBeGreaterThan(10_000);
    expect(counts.qualified).toEqual({ count: 1, estimate: false });
  });

  it('counts each tab with the current filters', async () => {
    await insertContact(ctx.app, owner, { firstName: 'New1' }); // status new → needs attention
    await insertContact(ctx.app, owner, { firstName: 'Act1', status: 'active' }); // qualified
    await insertContact(ctx.app, owner, {
      firstName: 'Con1',
      status: 'contacted',
      notes: 'Please FOLLOW UP next week',
    });
    await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts/cold-leads',
      headers: asCookie(owner),
      payload: { company: 'ColdCo' },
    });
    const counts = (
      await ctx.app.inject({ method: 'GET', url: '/api/contacts/counts', headers: asCookie(owner) })
    ).json();
    expect(counts).toEqual({
      all: { count: 4, estimate: false },
      cold: { count: 1, estimate: false },
      attention: { count: 3, estimate: false },
      qualified: { count: 1, estimate: false },
    });
    const filtered = (
      await ctx.app.inject({
        method: 'GET',
        url: '/api/contacts/counts?status=active',
        headers: asCookie(owner),
      })
    ).json();
    expect(filtered.all.count).toBe(1);
    expect(names(await list('tab=attention&sort=name&dir=asc'))).toEqual(['Cold Lead', 'Con1', 'New1']);
  });

  it("never shows or counts another user's contacts", async () => {
    const other = await createAccount(ctx, 'user');
    await insertContact(ctx.app, other, { firstName: 'Secret' });
    expect((await list('search=secret')).contacts).toEqual([]);
    expect((await list('')).contacts).toEqual([]);
    const counts = await ctx.app.inject({
      method: 'GET',
      url: '/api/contacts/counts?search=secret',
      headers: asCookie(owner),
    });
    expect(counts.json().all).toEqual({ count: 0, estimate: false });
  });
});

describe('derived flags from the latest disposition', () => {
  it('match the domain rules for every combination, and follow the latest disposition', async () => {
    const cases = [
      { status: 'contacted', notes: null, d: 'call-back', q: false },
      { status: 'contacted', notes: null, d: 'interested', q: false },
      { status: 'contacted', notes: 'ring back: callback', d: null, q: false },
      { status: 'contacted', notes: null, d: 'answered', q: true },
      { status: 'contacted', notes: null, d: 'qualified', q: false },
      { status: 'inactive', notes: null, d: 'voicemail', q: false },
      { status: 'new', notes: null, d: null, q: false },
      { status: 'active', notes: null, d: 'no-answer', q: false },
    ] as const;
    for (const c of cases) {
      const contact = await insertContact(ctx.app, owner, { status: c.status, notes: c.notes });
      if (c.d) await dispose(contact.id, c.d, '2026-11-20T10:00:00Z', c.q);
      const { contact: stored } = (
        await ctx.app.inject({ method: 'GET', url: `/api/contacts/${contact.id}`, headers: asCookie(owner) })
      ).json();
      const input = {
        status: c.status,
        notes: c.notes,
        latestDisposition: c.d,
        latestDispositionQualified: c.d ? c.q : null,
      };
      expect({ case: c, attention: stored.needsAttention, qualified: stored.isQualified }).toEqual({
        case: c,
        attention: needsAttention(input),
        qualified: isQualified(input),
      });
    }
  });

  it('uses only the latest disposition, and recomputes when one is deleted', async () => {
    const contact = await insertContact(ctx.app, owner, { status: 'contacted' });
    await dispose(contact.id, 'call-back', '2026-11-10T10:00:00Z');
    await dispose(contact.id, 'not-interested', '2026-11-12T10:00:00Z');
    const get = async () =>
      (
        await ctx.app.inject({ method: 'GET', url: `/api/contacts/${contact.id}`, headers: asCookie(owner) })
      ).json().contact;
    expect(await get()).toMatchObject({ needsAttention: false, lastCallDate: '2026-11-12T10:00:00.000Z' });
    await ctx.db.admin.query(
      `delete from call_dispositions where contact_id = $1 and disposition = 'not-interested'`,
      [contact.id],
    );
    expect(await get()).toMatchObject({ needsAttention: true, lastCallDate: '2026-11-10T10:00:00.000Z' });
  });
});

describe('send to a call queue', () => {
  it('adds the selection to the default queue, ignoring contacts already there, and all matching on the server', async () => {
    const a = await insertContact(ctx.app, owner, { status: 'active' });
    await insertContact(ctx.app, owner, { status: 'active' });
    const queues = (
      await ctx.app.inject({ method: 'GET', url: '/api/queues', headers: asCookie(owner) })
    ).json().queues;
    expect(queues).toHaveLength(1);
    expect(queues[0]).toMatchObject({
      queueId: 'default-all-contacts',
      name: 'All Synced Contacts',
      total: 2,
    });
    await ctx.db.admin.query('delete from queue_members');
    const add = (payload: object) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/queues/${queues[0].id}/members`,
        headers: asCookie(owner),
        payload,
      });
    expect((await add({ ids: [a.id] })).json()).toEqual({ added: 1, alreadyInQueue: 0, adding: 0 });
    expect((await add({ allMatching: { status: 'active' } })).json()).toEqual({
      added: 1,
      alreadyInQueue: 1,
      adding: 0,
    });
    const other = await createAccount(ctx, 'user');
    const foreign = await ctx.app.inject({
      method: 'POST',
      url: `/api/queues/${queues[0].id}/members`,
      headers: asCookie(other),
      payload: { ids: [a.id] },
    });
    expect(foreign.statusCode).toBe(404);
  });
});
