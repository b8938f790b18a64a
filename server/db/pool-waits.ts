import type pg from 'pg';
import { aroundConnect } from './around-connect.ts';

/** A wait for a pooled connection longer than this is counted (the capacity target: none over 50 ms). */
export const POOL_WAIT_REPORTED_MS = 50;
const REPORT_EVERY_MS = 10_000;

/**
 * `count` long waits in the window, `longestMs` the longest; `opening` of them were for a connection the pool had to
 * open (none idle, room to grow: PostgreSQL starting a backend), the others for one held by other work (every
 * connection busy).
 */
export type PoolWaitSummary = { count: number; longestMs: number; opening: number };

/**
 * Counts the times work waited longer than POOL_WAIT_REPORTED_MS for one of the pool's connections, and reports them
 * every 10 s when there were any, so an operator sees it in the log and a benchmark can count it. Each is told apart
 * by what the pool had when it was asked: every connection busy (the pool is too small for the load, or something
 * holds connections too long), or none idle but room to open one (the wait is a new backend's start). Waits are timed
 * on the promise form of `pool.connect()`, the one Kysely and the COPY streams use. Returns the function that stops
 * it.
 */
export function trackPoolWaits(
  pool: pg.Pool,
  report: (summary: PoolWaitSummary) => void,
  everyMs = REPORT_EVERY_MS,
): () => void {
  const max = pool.options.max ?? 10;
  let summary: PoolWaitSummary = { count: 0, longestMs: 0, opening: 0 };
  aroundConnect(pool, (args, connect) => {
    if (args.length > 0) return connect(...args);
    const opens = pool.idleCount === 0 && pool.totalCount < max;
    const started = performance.now();
    return (connect() as Promise<pg.PoolClient>).then((client) => {
      const waited = performance.now() - started;
      if (waited > POOL_WAIT_REPORTED_MS) {
        summary.count += 1;
        summary.longestMs = Math.max(summary.longestMs, waited);
        if (opens) summary.opening += 1;
      }
      return client;
    });
  });
  const timer = setInterval(() => {
    if (summary.count === 0) return;
    report({ ...summary, longestMs: Math.round(summary.longestMs) });
    summary = { count: 0, longestMs: 0, opening: 0 };
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
