import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../test/test-database.ts';
import { trackPoolWaits, type PoolWaitSummary } from './pool-waits.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Holds the pool's only connection for 150 ms while another is asked for, then lets the report of that wait come. */
async function waitBehindHeldConnection(pool: pg.Pool) {
  const held = await pool.connect();
  const waiting = pool.connect();
  await sleep(150);
  held.release();
  (await waiting).release();
  await sleep(80);
}

describe('waits for a pooled connection', () => {
  it('are counted when over 50 ms and reported with the longest; quick ones are not', async () => {
    const pool = new pg.Pool({ connectionString: database.appUrl, max: 1 });
    const reports: PoolWaitSummary[] = [];
    const stop = trackPoolWaits(pool, (summary) => reports.push(summary), 30);
    try {
      // Free connections come at once: nothing to report.
      for (let i = 0; i < 3; i++) (await pool.connect()).release();
      await new Promise((r) => setTimeout(r, 80));
      expect(reports).toEqual([]);

      // The only connection held for 150 ms: the next one asked for waits that long.
      await waitBehindHeldConnection(pool);
      expect(reports).toHaveLength(1);
      expect(reports[0]).toMatchObject({ count: 1, opening: 0 });
      expect(reports[0]!.longestMs).toBeGreaterThanOrEqual(140);

      // The pool's own queries (callback form) still work through it.
      expect((await pool.query<{ one: number }>('select 1 as one')).rows[0]!.one).toBe(1);
    } finally {
      stop();
      await pool.end();
    }
  });

  it('tell a wait for a connection being opened from one for a connection held by other work', async () => {
    // A backend slow to start: every new connection takes 120 ms before it is handed out.
    class SlowToOpen extends pg.Client {
      constructor(config?: pg.ClientConfig) {
        super(config);
        const connect = pg.Client.prototype.connect.bind(this) as (
          callback: (err: Error | null) => void,
        ) => void;
        Object.assign(this, {
          connect: (callback: (err: Error | null) => void) => setTimeout(() => connect(callback), 120),
        });
      }
    }
    const pool = new pg.Pool({
      connectionString: database.appUrl,
      max: 1,
      Client: SlowToOpen as unknown as NonNullable<pg.PoolConfig['Client']>,
    });
    const reports: PoolWaitSummary[] = [];
    const stop = trackPoolWaits(pool, (summary) => reports.push(summary), 30);
    try {
      // The first connection is opened: a wait, while a connection opened.
      (await pool.connect()).release();
      await new Promise((r) => setTimeout(r, 80));
      expect(reports).toHaveLength(1);
      expect(reports[0]).toMatchObject({ count: 1, opening: 1 });
      expect(reports[0]!.longestMs).toBeGreaterThanOrEqual(110);

      // It is kept and handed out at once; the next one asked waits for its release: a wait, none opening.
      await waitBehindHeldConnection(pool);
      expect(reports).toHaveLength(2);
      expect(reports[1]).toMatchObject({ count: 1, opening: 0 });
    } finally {
      stop();
      await pool.end();
    }
  });
});
