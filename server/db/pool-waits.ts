import type pg from 'pg';
import { aroundConnect } from './around-connect.ts';

/** A wait for a pooled connection longer than this is counted (the capacity target: none over 50 ms). */
export const POOL_WAIT_REPORTED_MS = 50;
const REPORT_EVERY_MS = 10_000;

export type PoolWaitSummary = { count: number; longestMs: number };

/**
 * Counts the times work waited longer than POOL_WAIT_REPORTED_MS for one of the pool's connections (every
 * connection busy: the pool is too small for the load, or something holds connections too long), and reports them
 * every 10 s when there were any, so an operator sees it in the log and a benchmark can count it. Waits are timed on
 * the promise form of `pool.connect()`, the one Kysely and the COPY streams use. Returns the function that stops it.
 */
export function trackPoolWaits(
  pool: pg.Pool,
  report: (summary: PoolWaitSummary) => void,
  everyMs = REPORT_EVERY_MS,
): () => void {
  let count = 0;
  let longestMs = 0;
  aroundConnect(pool, (args, connect) => {
    if (args.length > 0) return connect(...args);
    const started = performance.now();
    return (connect() as Promise<pg.PoolClient>).then((client) => {
      const waited = performance.now() - started;
      if (waited > POOL_WAIT_REPORTED_MS) {
        count += 1;
        longestMs = Math.max(longestMs, waited);
      }
      return client;
    });
  });
  const timer = setInterval(() => {
    if (count === 0) return;
    report({ count, longestMs: Math.round(longestMs) });
    count = 0;
    longestMs = 0;
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
