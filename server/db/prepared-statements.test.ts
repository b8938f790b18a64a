import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../test/test-database.ts';
import { createPool } from './database.ts';
import { LONGEST_PREPARED_TEXT, PREPARED_PER_CONNECTION } from './prepared-statements.ts';

let database: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.admin.query(
    'create table prepared_probe (n int, word text); insert into prepared_probe values (1, $$one$$), (2, $$two$$); grant all on prepared_probe to public',
  );
  // One connection: what it prepared shows in pg_prepared_statements, which is per connection.
  pool = createPool(database.appUrl, 1, { prepareStatements: true });
});
afterAll(async () => {
  await pool.end();
  await database.drop();
});

/** The statements this pool's one connection holds prepared, by their text. */
const preparedTexts = async () =>
  (await pool.query<{ statement: string }>('select statement from pg_prepared_statements')).rows.map(
    (r) => r.statement,
  );

describe('statements prepared per connection (decision 049)', () => {
  it('prepares a statement with parameters the second time the process sees it, and answers the same', async () => {
    const text = 'select word from prepared_probe where n = $1 /* twice */';
    expect((await pool.query(text, [1])).rows).toEqual([{ word: 'one' }]);
    expect(await preparedTexts()).not.toContain(text);
    expect((await pool.query(text, [2])).rows).toEqual([{ word: 'two' }]);
    expect((await pool.query(text, [1])).rows).toEqual([{ word: 'one' }]);
    expect(await preparedTexts()).toContain(text);
  });

  it('leaves statements without parameters, and very long ones, unprepared', async () => {
    const plain = 'select count(*)::int as n from prepared_probe /* plain */';
    const long = `select n from prepared_probe where n = $1 /* ${'x'.repeat(LONGEST_PREPARED_TEXT)} */`;
    for (let i = 0; i < 3; i++) {
      expect((await pool.query(plain)).rows).toEqual([{ n: 2 }]);
      expect((await pool.query(long, [2])).rows).toEqual([{ n: 2 }]);
    }
    const texts = await preparedTexts();
    expect(texts).not.toContain(plain);
    expect(texts).not.toContain(long);
  });

  it('prepares again, under a new name, a statement whose result changed shape under it', async () => {
    await database.admin.query('create table reshaped_probe (n int); insert into reshaped_probe values (7)');
    await database.admin.query('grant all on reshaped_probe to public');
    const text = 'select * from reshaped_probe where n = $1';
    for (let i = 0; i < 3; i++) expect((await pool.query(text, [7])).rows).toEqual([{ n: 7 }]);
    expect(await preparedTexts()).toContain(text);
    // Another instance migrates the schema.
    await database.admin.query('alter table reshaped_probe add column note text');
    await expect(pool.query(text, [7])).rejects.toMatchObject({ code: '0A000' });
    expect((await pool.query(text, [7])).rows).toEqual([{ n: 7, note: null }]);
    expect((await pool.query(text, [7])).rows).toEqual([{ n: 7, note: null }]);
  });

  it(`prepares at most ${PREPARED_PER_CONNECTION} statements per connection and runs the others unnamed`, async () => {
    const own = createPool(database.appUrl, 1, { prepareStatements: true });
    const client = await own.connect();
    try {
      for (let round = 0; round < 2; round++)
        for (let i = 0; i < PREPARED_PER_CONNECTION + 20; i++) {
          const rows = (await client.query(`select $1::int + ${i} as n /* many ${i} */`, [round])).rows;
          expect(rows).toEqual([{ n: round + i }]);
        }
      const held = await client.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements');
      expect(held.rows[0]!.n).toBe(PREPARED_PER_CONNECTION);
    } finally {
      client.release();
      await own.end();
    }
  });
});
