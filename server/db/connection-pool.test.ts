import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/test-database.ts';
import { createTestApp } from '../test/test-app.ts';
import { createPool } from './database.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The PostgreSQL backend behind each of `clients`, then each released. */
async function backendsOf(clients: pg.PoolClient[]): Promise<Set<number>> {
  const pids = await Promise.all(
    clients.map(async (c) => (await c.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid),
  );
  for (const c of clients) c.release();
  return new Set(pids);
}

describe('the connection pool', () => {
  it('keeps the connections a busy spell opened, idle or not, so the next spell waits for no new backend (decision 057)', async () => {
    const pool = createPool(database.appUrl, 3, { idleTimeoutMs: 50 });
    try {
      // Three at once: the pool opens three backends.
      const opened = await backendsOf(await Promise.all([pool.connect(), pool.connect(), pool.connect()]));
      expect(opened.size).toBe(3);
      // Well past the idle timeout: all three are still open, the same backends.
      await sleep(300);
      expect({ total: pool.totalCount, idle: pool.idleCount }).toEqual({ total: 3, idle: 3 });
      const again = await backendsOf(await Promise.all([pool.connect(), pool.connect(), pool.connect()]));
      expect(again).toEqual(opened);
    } finally {
      await pool.end();
    }
  });

  it('is open to its size when the server is built, before any request asks (decision 057)', async () => {
    const ctx = await createTestApp();
    try {
      const { pool } = ctx.app.ctx;
      expect(pool.totalCount).toBe(pool.options.max);
      // A burst of the pool's size is served by those connections: none opened on demand.
      const burst = await Promise.all(Array.from({ length: pool.options.max }, () => pool.connect()));
      expect(pool.totalCount).toBe(pool.options.max);
      for (const client of burst) client.release();
    } finally {
      await ctx.close();
    }
  });
});
