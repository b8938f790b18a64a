import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.ts';
import { ownLook } from '../../db/own-looks.ts';
import { watchOthersBusy } from './others-busy.ts';

/**
 * What an import sees of the requests' pool (decisions 041, 043): idle, busy (a connection in use), and a request
 * waiting for a connection, each since it last asked. A real pool of one connection on a real database.
 */
let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  pool = new pg.Pool({ connectionString: db.appUrl, max: 1 });
});
afterAll(async () => {
  await pool.end();
  await db.drop();
});

/** What the instance's own looks go through (the Kysely handle in the app; any object names it). */
const handle = {};
const samples = () => new Promise((resolve) => setTimeout(resolve, 100));

describe('watchOthersBusy', () => {
  it('tells idle from busy, and a busy pool from one a request waited for', async () => {
    const watch = watchOthersBusy(pool, handle);
    try {
      await pool.query('select 1');
      await samples();
      watch.seen();
      await samples();
      expect(watch.seen()).toEqual({ busyShare: 0, waited: false });

      const held = await pool.connect();
      watch.seen();
      await samples();
      expect(watch.seen()).toEqual({ busyShare: 1, waited: false });

      const waiting = pool.query('select 2 as n');
      await samples();
      held.release();
      expect((await waiting).rows[0]).toEqual({ n: 2 });
      expect(watch.seen()).toMatchObject({ waited: true });

      // Asked again: only what happened since, and nobody waits now.
      await samples();
      expect(watch.seen()).toEqual({ busyShare: 0, waited: false });
    } finally {
      watch.stop();
    }
  });

  it("does not count the instance's own looks as people at work, and counts people beside them", async () => {
    const watch = watchOthersBusy(pool, handle);
    try {
      // The change feed's look holding the only connection: not people.
      const release = await ownLook(handle, async () => {
        const client = await pool.connect();
        watch.seen();
        await samples();
        expect(watch.seen()).toEqual({ busyShare: 0, waited: false });
        return () => client.release();
      });
      release();

      // Connections held by own looks elsewhere (another handle) are people here.
      const other = {};
      const held = await ownLook(other, () => pool.connect());
      watch.seen();
      await samples();
      expect(watch.seen()).toEqual({ busyShare: 1, waited: false });
      held.release();
    } finally {
      watch.stop();
    }
  });
});
