import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '../test/test-database.ts';
import { dbOnPool, withActor, type Db } from './database.ts';

let database: TestDatabase;
let pool: pg.Pool;
let db: Db;
/** Every text the one pooled connection was sent, in order. */
const sent: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  // One connection, so a transaction left open would show in the next test's statements.
  pool = new pg.Pool({ connectionString: database.appUrl, max: 1 });
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      if (typeof args[0] === 'string') sent.push(args[0]);
      return query(...args);
    };
  });
  db = dbOnPool(pool);
  await database.admin.query('create table actor_probe (n int); grant all on actor_probe to public');
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

const USER = '3f1c3a52-8a0e-4a8e-9a55-3f0e8f0c2b11';
const setting = (name: string) =>
  sql<{ value: string | null }>`select current_setting(${name}, true) as value`;

describe('transactions acting for someone (decision 039)', () => {
  it('sends BEGIN with the act-as statement in one round trip, and acts for that user until COMMIT', async () => {
    sent.length = 0;
    const seen = await withActor(db, { kind: 'user', userId: USER }, async (trx) => {
      const user = (await setting('app.user_id').execute(trx)).rows[0]?.value;
      const actor = (await setting('app.actor').execute(trx)).rows[0]?.value;
      return { user, actor };
    });
    expect(seen).toEqual({ user: USER, actor: 'user' });
    expect(sent[0]).toMatch(/^begin; select set_config\('app\.user_id', '3f1c3a52-[^']+', true\)/);
    expect(sent.slice(1)).toEqual([
      expect.stringContaining('current_setting'),
      expect.stringContaining('current_setting'),
      'commit',
    ]);

    // The settings were the transaction's own: the connection, next used outside one, acts for nobody.
    const after = (await setting('app.user_id').execute(db)).rows[0]?.value;
    expect(after ?? '').toBe('');
  });

  it('rolls the whole transaction back when its work fails, BEGIN included', async () => {
    await expect(
      withActor(db, { kind: 'system' }, async (trx) => {
        await sql`insert into actor_probe values (1)`.execute(trx);
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    const count = async (n: number) =>
      (await database.admin.query('select count(*)::int as n from actor_probe where n = $1', [n])).rows[0];
    expect(await count(1)).toEqual({ n: 0 });
    // The connection is back in the pool outside any transaction: the next one commits on its own.
    await withActor(db, { kind: 'system' }, (trx) => sql`insert into actor_probe values (2)`.execute(trx));
    expect(await count(2)).toEqual({ n: 1 });
  });

  it('sends BEGIN on its own when a transaction starts with anything else, and nothing when it runs nothing', async () => {
    sent.length = 0;
    await db.transaction().execute((trx) => sql`select 1`.execute(trx));
    expect(sent).toEqual(['begin', 'select 1', 'commit']);

    sent.length = 0;
    await db.transaction().execute(async () => undefined);
    expect(sent).toEqual([]);
  });

  it('keeps a value that is not a user id out of the combined text, and still acts for it the usual way', async () => {
    sent.length = 0;
    const odd = "x'); drop table actor_probe; --";
    const seen = await withActor(db, { kind: 'user', userId: odd }, async (trx) => {
      return (await setting('app.user_id').execute(trx)).rows[0]?.value;
    });
    expect(seen).toBe(odd);
    expect(sent[0]).toBe('begin');
    expect(sent[1]).toContain('$1');
    expect(
      (await database.admin.query("select to_regclass('actor_probe') is not null as kept")).rows[0],
    ).toEqual({
      kept: true,
    });
  });
});
