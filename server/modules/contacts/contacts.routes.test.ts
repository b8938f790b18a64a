import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';
import { buildContact, insertContact } from '../../test/contact-factory.ts';

let ctx: TestContext;
let owner: Session;
let stranger: Session;

beforeAll(async () => {
  ctx = await createTestApp();
  await createAccount(ctx, 'admin');
  owner = await createAccount(ctx, 'user');
  stranger = await createAccount(ctx, 'user');
});
afterAll(() => ctx.close());

const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
  as: Session = owner,
) => ctx.app.inject({ method, url, headers: asCookie(as), ...(payload ? { payload } : {}) });

describe('creating contacts', () => {
  it('stores every field, owned and synced, normalises the phone, and adds it once to the default queue', async () => {
    const created = await call(
      'POST',
      '/api/contacts',
      buildContact({ phone: '555-123-4567', tags: ['vip', 'q4'], status: 'contacted' }),
    );
    expect(created.statusCode).toBe(201);
    const contact = created.json().contact;
    expect(contact).toMatchObject({
      phone: '555-123-4567',
      phoneE164: '+15551234567',
      tags: ['vip', 'q4'],
      status: 'contacted',
      synced: true,
      isColdLead: false,
      lastCallDate: null,
    });
    expect(contact.lastSyncedAt).toBeTruthy();

    const { rows } = await ctx.db.admin.query(
      `select q.queue_id, q.queue_name, count(m.*)::int as members from power_dialer_queues q left join queue_members m on m.queue_id = q.id and m.contact_id = $2 where q.user_id = $1 group by q.id`,
      [owner.userId, contact.id],
    );
    expect(rows).toEqual([
      { queue_id: 'default-all-contacts', queue_name: 'All Synced Contacts', members: 1 },
    ]);
  });

  it('defaults the status to new', async () => {
    const { status } = await insertContact(ctx.app, owner).then((c) => c as unknown as { status: string });
    expect(status).toBe('new');
  });

  it('refuses invalid input with the service messages and stores nothing', async () => {
    const before = (await ctx.db.admin.query('select count(*)::int as n from contacts')).rows[0].n;
    const missing = await call('POST', '/api/contacts', buildContact({ firstName: ' ', email: 'nope' }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().issues.map((i: { message: string }) => i.message)).toEqual(
      expect.arrayContaining([
        'Validation error: First name is required',
        'Validation error: Valid email is required',
      ]),
    );
    expect((await call('POST', '/api/contacts', buildContact({ status: 'hot' as never }))).statusCode).toBe(
      400,
    );
    expect(
      (await call('POST', '/api/contacts', buildContact({ notes: 'x'.repeat(10_001) }))).statusCode,
    ).toBe(400);
    expect(
      (
        await call(
          'POST',
          '/api/contacts',
          buildContact({ tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }),
        )
      ).statusCode,
    ).toBe(400);
    expect((await ctx.db.admin.query('select count(*)::int as n from contacts')).rows[0].n).toBe(before);
  });
});

describe('updating contacts', () => {
  it('writes one history entry with the changed fields, old and new values, in the same transaction', async () => {
    const contact = await insertContact(ctx.app, owner, { company: 'Old Co', tags: ['a'] });
    const response = await call('PATCH', `/api/contacts/${contact.id}`, {
      company: 'New Co',
      tags: ['a', 'b'],
      lastName: 'Lovelace',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().contact).toMatchObject({ company: 'New Co', tags: ['a', 'b'] });

    const detail = (await call('GET', `/api/contacts/${contact.id}`)).json();
    expect(detail.history).toHaveLength(1);
    expect(detail.history[0]).toMatchObject({
      changedFields: ['company', 'tags'],
      previousValues: { company: 'Old Co', tags: ['a'] },
      newValues: { company: 'New Co', tags: ['a', 'b'] },
    });
  });

  it('writes no history when nothing changes, and records cleared values as empty', async () => {
    const contact = await insertContact(ctx.app, owner, { title: 'CTO' });
    await call('PATCH', `/api/contacts/${contact.id}`, { firstName: contact.firstName });
    await call('PATCH', `/api/contacts/${contact.id}`, { title: null });
    const { history } = (await call('GET', `/api/contacts/${contact.id}`)).json();
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      changedFields: ['title'],
      previousValues: { title: 'CTO' },
      newValues: { title: null },
    });
  });

  it('runs the service rules when a name or the e-mail changes, and changes nothing on failure', async () => {
    const contact = await insertContact(ctx.app, owner);
    const response = await call('PATCH', `/api/contacts/${contact.id}`, {
      email: 'not-an-address',
      company: 'Changed',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Validation error: Valid email is required');
    const { contact: after } = (await call('GET', `/api/contacts/${contact.id}`)).json();
    expect(after.email).toBe(contact.email);
    expect(after.company).toBe('Analytical Engines');
  });
});

describe("another user's contacts", () => {
  it('are 404 for read, update and delete, and bulk delete leaves them alone', async () => {
    const theirs = await insertContact(ctx.app, stranger);
    expect((await call('GET', `/api/contacts/${theirs.id}`)).statusCode).toBe(404);
    expect((await call('PATCH', `/api/contacts/${theirs.id}`, { company: 'Mine now' })).statusCode).toBe(404);
    expect((await call('DELETE', `/api/contacts/${theirs.id}`)).statusCode).toBe(404);
    const bulk = await call('POST', '/api/contacts/bulk-delete', { ids: [theirs.id] });
    expect(bulk.json()).toEqual({ deleted: 0 });
    const { rows } = await ctx.db.admin.query('select company from contacts where id = $1', [theirs.id]);
    expect(rows).toEqual([{ company: 'Analytical Engines' }]);
  });

  it('answers a malformed id with 400', async () => {
    const response = await call('GET', '/api/contacts/12345');
    expect(response.statusCode).toBe(400);
    expect(response.json().issues[0].path).toBe('params.id');
  });
});

describe('deleting', () => {
  it('deletes one contact with its history and queue membership; its dispositions stay', async () => {
    const contact = await insertContact(ctx.app, owner);
    await call('PATCH', `/api/contacts/${contact.id}`, { company: 'Gone Co' });
    await ctx.db.admin.query(
      `insert into call_dispositions (contact_id, user_id, disposition) values ($1, $2, 'answered')`,
      [contact.id, owner.userId],
    );
    expect((await call('DELETE', `/api/contacts/${contact.id}`)).statusCode).toBe(204);
    expect((await call('GET', `/api/contacts/${contact.id}`)).statusCode).toBe(404);
    const counts = await ctx.db.admin.query(
      `select (select count(*)::int from contact_history where contact_id = $1) as history,
              (select count(*)::int from queue_members where contact_id = $1) as members,
              (select count(*)::int from call_dispositions where user_id = $2 and contact_id is null) as orphans`,
      [contact.id, owner.userId],
    );
    expect(counts.rows[0]).toEqual({ history: 0, members: 0, orphans: 1 });
  });

  it('bulk-deletes the selected ids', async () => {
    const a = await insertContact(ctx.app, owner);
    const b = await insertContact(ctx.app, owner);
    const keep = await insertContact(ctx.app, owner);
    expect((await call('POST', '/api/contacts/bulk-delete', { ids: [a.id, b.id] })).json()).toEqual({
      deleted: 2,
    });
    expect((await call('GET', `/api/contacts/${keep.id}`)).statusCode).toBe(200);
    expect((await call('POST', '/api/contacts/bulk-delete', { ids: [] })).json().issues[0].message).toMatch(
      /No contacts selected|Invalid/,
    );
  });
});

describe('cold leads', () => {
  it('creates a lead from a company: generated names, placeholder address, status new, cold-lead flag', async () => {
    const response = await call('POST', '/api/contacts/cold-leads', {
      company: 'Acme Rockets',
      website: 'acme.example',
    });
    expect(response.statusCode).toBe(201);
    const lead = response.json().contact;
    expect(lead).toMatchObject({
      firstName: 'Cold Lead',
      lastName: 'Acme Rockets',
      status: 'new',
      isColdLead: true,
      website: 'acme.example',
    });
    expect(lead.email).toMatch(/^cold-lead\+[0-9a-f-]{36}@example\.invalid$/);
  });

  it('names a phone-only lead "Contact" and refuses a lead with neither company nor phone', async () => {
    const lead = (await call('POST', '/api/contacts/cold-leads', { phone: '555 987 6543' })).json().contact;
    expect(lead).toMatchObject({ firstName: 'Cold Lead', lastName: 'Contact', phoneE164: '+15559876543' });
    const refused = await call('POST', '/api/contacts/cold-leads', { website: 'only.example' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues[0].message).toBe('Please provide at least a company name or phone number');
  });
});
