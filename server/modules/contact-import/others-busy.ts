import type pg from 'pg';
import { ownLooksOn } from '../../db/own-looks.ts';

const SAMPLE_EVERY_MS = 10;

/**
 * How busy others keep this instance's requests' pool while an import saves on a pool of its own: sampled every
 * 10 ms, a sample is busy when a request waits for a connection, or more of its connections are in use than the
 * instance's own looks through `db` account for (the change feed, the webhook watch: decision 051). `seen()` answers
 * the busy share of the samples since it was last asked (decision 041), and whether a request waited for a connection
 * in any of them (decision 043). Only this instance's pool is seen: another instance's work on the same database is
 * not.
 */
export function watchOthersBusy(pool: pg.Pool, db: object) {
  let samples = 0;
  let busy = 0;
  let waited = false;
  const timer = setInterval(() => {
    samples += 1;
    if (pool.waitingCount > 0) waited = true;
    if (pool.waitingCount > 0 || pool.totalCount - pool.idleCount > ownLooksOn(db)) busy += 1;
  }, SAMPLE_EVERY_MS);
  timer.unref();
  return {
    seen(): { busyShare: number; waited: boolean } {
      const seen = { busyShare: samples === 0 ? 0 : busy / samples, waited };
      samples = 0;
      busy = 0;
      waited = false;
      return seen;
    },
    stop: () => clearInterval(timer),
  };
}
