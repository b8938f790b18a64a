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
    total: number;
    totalIsEstimate: boolean;
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

  it('searches by prefix under 3 characters and anywhere from 3, across names, e-mail, company and phone digits', async () => {
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

  it('pages by 100 with the total, reaching the last page from the other end in the right order', async () => {
    await ctx.db.admin.query(
      `insert into contacts (user_id, first_name, last_name, email) select $1, 'P' || lpad(g::text, 3, '0'), 'X', 'p' || g || '@example.com' from generate_series(1, 250) g`,
      [owner.userId],
    );
    const first = await list('sort=name&dir=asc&page=1');
    expect(first.total).toBe(250);
    expect(first.totalIsEstimate).toBe(false);
    expect(first.contacts).toHaveLength(100);
    expect(first.contacts[0]!.firstName).toBe('P001');
    const last = await list('sort=name&dir=asc&page=3');
    expect(names(last)).toEqual(Array.from({ length: 50 }, (_, i) => `P${String(201 + i).padStart(3, '0')}`));
    const second = await list('sort=name&dir=desc&page=2');
    expect(second.contacts[0]!.firstName).toBe('P150');
    expect((await list('page=4')).contacts).toEqual([]);
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
    expect((await list('search=secret')).total).toBe(0);
    expect((await list('')).total).toBe(0);
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
    expect((await add({ ids: [a.id] })).json()).toEqual({ added: 1, alreadyInQueue: 0 });
    expect((await add({ allMatching: { status: 'active' } })).json()).toEqual({
      added: 1,
      alreadyInQueue: 1,
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
