import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertContact } from '../../test/contact-factory.ts';
import { importFile } from '../../test/import-files.ts';
import {
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';

let ctx: TestContext;
let owner: Session;
let other: Session;

beforeAll(async () => {
  ctx = await createTestApp();
  owner = await createAccount(ctx, 'user');
  other = await createAccount(ctx, 'user');
});
afterAll(() => ctx.close());

const createQueue = (who: Session, selection: object) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/queues',
    headers: asCookie(who),
    payload: { name: 'From the fair', selection },
  });

describe('a queue of the contacts an import created (the queue editor’s Import Contacts)', () => {
  it('selects exactly the new contacts of that import, not older ones nor a duplicate already there', async () => {
    await insertContact(ctx.app, owner, { firstName: 'Old', email: 'old@fair.example' });
    ctx.clock.advance(1000);
    const csv = [
      'First Name,Last Name,Phone,Email',
      'New,One,(555) 010-0201,one@fair.example',
      'Old,Again,(555) 010-0202,old@fair.example',
      'New,Two,(555) 010-0203,two@fair.example',
    ].join('\n');
    const { report } = await importFile(ctx.app, owner, 'fair.csv', csv, {
      mapping: ['firstName', 'lastName', 'phone', 'email'],
      header: true,
    });
    expect(report).toMatchObject({ created: 2, skipped: 1 });
    ctx.clock.advance(1000);
    await insertContact(ctx.app, owner, { firstName: 'Later', email: 'later@fair.example' });

    const created = await createQueue(owner, { importId: report!.id });
    expect(created.statusCode).toBe(201);
    const queue = created.json().queue;
    expect(queue.total).toBe(2);
    const members = await ctx.app.inject({
      method: 'GET',
      url: `/api/queues/${queue.id}/members`,
      headers: asCookie(owner),
    });
    expect(
      members
        .json()
        .members.map((m: { lastName: string }) => m.lastName)
        .sort(),
    ).toEqual(['One', 'Two']);

    // Another user's import names no contact of theirs: nothing is created.
    const foreign = await createQueue(other, { importId: report!.id });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe('Please select at least one contact for your queue');
  });
});
