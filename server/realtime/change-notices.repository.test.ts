import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withActor } from '../db/database.ts';
import { createAccount, createTestApp, type TestContext } from '../test/test-app.ts';
import { insertContact } from '../test/contact-factory.ts';
import {
  insertChangeNotice,
  pruneChangeNotices,
  readChangeNotices,
  type ChangeFeedCursor,
} from './change-notices.repository.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

/** A gate a test opens by hand. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** The next look, keeping only this test's own notices (the server writes others as it runs). */
async function look(cursor: ChangeFeedCursor, marker: string) {
  const read = await readChangeNotices(ctx.app.ctx.db, cursor);
  return { cursor: read.cursor, mine: read.payloads.filter((p) => p.startsWith(marker)) };
}

describe('change notices (the realtime feed each instance reads)', () => {
  it('reads a notice once its transaction commits, when a later transaction committed first, and never twice', async () => {
    const db = ctx.app.ctx.db;
    const { cursor } = await readChangeNotices(db, null);
    const written = gate();
    const commit = gate();
    const slow = db.transaction().execute(async (trx) => {
      await insertChangeNotice(trx, 'order:first-written');
      written.open();
      await commit.opened;
    });
    await written.opened;
    await insertChangeNotice(db, 'order:second-written');

    let next = await look(cursor, 'order:');
    expect(next.mine).toEqual(['order:second-written']);
    next = await look(next.cursor, 'order:');
    expect(next.mine).toEqual([]);

    commit.open();
    await slow;
    next = await look(next.cursor, 'order:');
    expect(next.mine).toEqual(['order:first-written']);
    next = await look(next.cursor, 'order:');
    expect(next.mine).toEqual([]);
  });

  it('never reads the notice of a transaction that rolled back, and goes on past it', async () => {
    const db = ctx.app.ctx.db;
    const { cursor } = await readChangeNotices(db, null);
    const written = gate();
    const rollBack = gate();
    const doomed = db
      .transaction()
      .execute(async (trx) => {
        await insertChangeNotice(trx, 'undone:never');
        written.open();
        await rollBack.opened;
        throw new Error('rolled back on purpose');
      })
      .catch((error: unknown) => error);
    await written.opened;
    let next = await look(cursor, 'undone:');
    rollBack.open();
    expect(await doomed).toBeInstanceOf(Error);
    await insertChangeNotice(db, 'undone:after');
    next = await look(next.cursor, 'undone:');
    expect(next.mine).toEqual(['undone:after']);
    expect(next.cursor.inProgress).not.toContain(cursor.xmax);
  });

  it('carries the notice the contacts trigger writes when a contact is saved', async () => {
    const user = await createAccount(ctx, 'user');
    const { cursor } = await readChangeNotices(ctx.app.ctx.db, null);
    const contact = await insertContact(ctx.app, user, { firstName: 'Noa' });
    const read = await readChangeNotices(ctx.app.ctx.db, cursor);
    const events = read.payloads.map((p) => JSON.parse(p)).filter((e) => e.userId === user.userId);
    expect(events).toContainEqual(
      expect.objectContaining({ topic: 'contacts', op: 'INSERT', id: contact.id, userId: user.userId }),
    );
  });

  it('forgets notices after ten minutes, not before', async () => {
    await ctx.db.admin.query(
      `insert into change_notices (payload, created_at) values
         ('prune:old', now() - interval '11 minutes'), ('prune:recent', now() - interval '9 minutes')`,
    );
    await withActor(ctx.app.ctx.db, { kind: 'system' }, (trx) => pruneChangeNotices(trx));
    const { rows } = await ctx.db.admin.query<{ payload: string }>(
      `select payload from change_notices where payload like 'prune:%'`,
    );
    expect(rows.map((r) => r.payload)).toEqual(['prune:recent']);
  });
});
