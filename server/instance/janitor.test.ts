import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createTestApp, type Session, type TestContext } from '../test/test-app.ts';
import { DEFAULT_QUEUE_ID } from '#domain/contacts/queue.schema.ts';
import { withActor } from '../db/database.ts';
import { claimAbandonedImport } from '../modules/contact-import/public.ts';
import { recoverAbandonedWork } from './janitor.ts';

let ctx: TestContext;
let owner: Session;

beforeAll(async () => {
  ctx = await createTestApp();
  owner = await createAccount(ctx, 'user');
});
afterAll(() => ctx.close());

/** Imports an instance that died was running (no instance recorded), each with contacts it saved but never queued. */
async function abandonImports(count: number, contactsEach: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { rows } = await ctx.db.admin.query<{ id: string }>(
      `insert into contact_imports (user_id, file_name, format, duplicates, created_at, created)
       values ($1, 'people.csv', 'csv', 'skip', now(), $2) returning id`,
      [owner.userId, contactsEach],
    );
    ids.push(rows[0]!.id);
    await ctx.db.admin.query(
      `insert into contacts (user_id, first_name, last_name, email, synced)
       select $1, 'Orphan', 'No' || g || '-' || $2, 'orphan-' || g || '-' || $2 || '@example.com', true
       from generate_series(1, $3) g`,
      [owner.userId, i, contactsEach],
    );
  }
  return ids;
}

describe('housekeeping of a dead instance', () => {
  it('repairs each abandoned import exactly once when rounds overlap, without deadlocking', async () => {
    const ids = await abandonImports(4, 1500);
    const started = Date.now();
    // Overlapping rounds, as when one round outlives the 30 s between rounds, or two instances start together: each
    // begins while the one before is still repairing.
    const reports = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        new Promise((r) => setTimeout(r, i * 15)).then(() => recoverAbandonedWork(ctx.app.ctx)),
      ),
    );
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(reports.reduce((n, r) => n + r.imports, 0)).toBe(ids.length);
    const { rows } = await ctx.db.admin.query<{ status: string; n: number }>(
      `select status, count(*)::int as n from contact_imports where id = any($1) group by status`,
      [ids],
    );
    expect(rows).toEqual([{ status: 'failed', n: ids.length }]);
    const queued = await ctx.db.admin.query<{ missing: number }>(
      `select count(*)::int as missing from contacts c
       where c.user_id = $1 and c.synced and not exists (
         select 1 from queue_members m join power_dialer_queues q on q.id = m.queue_id
         where m.contact_id = c.id and q.queue_id = $2)`,
      [owner.userId, DEFAULT_QUEUE_ID],
    );
    expect(queued.rows[0]!.missing).toBe(0);
  });

  it('lets one round at a time repair an import: another round skips it instead of waiting', async () => {
    const [id] = await abandonImports(1, 1);
    let release!: () => void;
    const holding = new Promise<void>((r) => (release = r));
    let claimedFirst!: () => void;
    const firstClaimed = new Promise<void>((r) => (claimedFirst = r));
    const first = withActor(ctx.app.ctx.db, { kind: 'user', userId: owner.userId }, async (trx) => {
      const mine = await claimAbandonedImport(trx, id!);
      claimedFirst();
      await holding;
      return mine;
    });
    await firstClaimed;
    const second = await withActor(ctx.app.ctx.db, { kind: 'user', userId: owner.userId }, (trx) =>
      claimAbandonedImport(trx, id!),
    );
    release();
    expect(await first).toBe(true);
    expect(second).toBe(false);
  });
});
