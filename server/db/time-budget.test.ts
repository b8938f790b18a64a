import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createDb, type Db } from './database.ts';
import { withinTimeBudget } from './time-budget.ts';
import { createTestDatabase, type TestDatabase } from '../test/test-database.ts';

let db: TestDatabase;
let app: Db;

beforeAll(async () => {
  db = await createTestDatabase();
  app = createDb(db.appUrl, 2);
});
afterAll(async () => {
  await app.destroy();
  await db.drop();
});

describe('withinTimeBudget', () => {
  it('returns the result of a read that fits, and leaves the timeout as it found it', async () => {
    const out = await app.transaction().execute(async (trx) => {
      await sql`set local statement_timeout = '5s'`.execute(trx);
      const value = await withinTimeBudget(trx, 500, async () => {
        const r = await sql<{ n: number }>`select 41 + 1 as n`.execute(trx);
        return r.rows[0]?.n;
      });
      const after = await sql<{ t: string }>`select current_setting('statement_timeout') as t`.execute(trx);
      return { value, timeout: after.rows[0]?.t };
    });
    expect(out).toEqual({ value: 42, timeout: '5s' });
  });

  it('gives up on a read that runs out of time, and the transaction goes on', async () => {
    const started = Date.now();
    const out = await app.transaction().execute(async (trx) => {
      const value = await withinTimeBudget(trx, 50, () => sql`select pg_sleep(2)`.execute(trx));
      const next = await sql<{ ok: number }>`select 1 as ok`.execute(trx);
      return { value, next: next.rows[0]?.ok };
    });
    expect(out).toEqual({ value: undefined, next: 1 });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('passes on errors that are not the timeout', async () => {
    await expect(
      app.transaction().execute((trx) => withinTimeBudget(trx, 500, () => sql`select 1 / 0`.execute(trx))),
    ).rejects.toThrow(/division by zero/);
  });

  it('costs two statements besides the read: a budgeted count is one of the contact list’s busiest requests', async () => {
    const sent: string[] = [];
    const query = Reflect.get(pg.Client.prototype, 'query') as (
      this: pg.Client,
      ...args: unknown[]
    ) => unknown;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0];
      sent.push(typeof first === 'string' ? first : String((first as { text?: string }).text));
      return query.apply(this, args);
    } as typeof pg.Client.prototype.query;
    try {
      await app.transaction().execute(async (trx) => {
        sent.length = 0;
        await withinTimeBudget(trx, 500, () => sql`select 1`.execute(trx));
      });
    } finally {
      pg.Client.prototype.query = query as typeof pg.Client.prototype.query;
    }
    // The transaction's begin and commit around: the savepoint with its timeout, the read, back to the savepoint
    // (it was five: the savepoint, the timeout read and set, the read, the timeout set back, the release).
    expect(sent.filter((text) => !/^(begin|commit)$/i.test(text.trim()))).toEqual([
      'savepoint within_budget; set local statement_timeout = 500',
      'select 1',
      'rollback to savepoint within_budget',
    ]);
  });
});
