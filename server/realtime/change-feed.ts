import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { ownLook } from '../db/own-looks.ts';
import { everyFewMoments, type Repeating } from '../jobs/every-few-moments.ts';
import type { ChangeHub } from './change-hub.ts';
import { readChangeNotices, type ChangeFeedCursor } from './change-notices.repository.ts';

/** How often each instance reads new change notices: the most an open page waits for a change beyond the query. */
export const CHANGE_FEED_MS = 100;

/**
 * Hands every change notice committed after the first look (made before this returns) to the hub, once, on this
 * instance (decision 038). Notices are rows the notify triggers write in the writer's own transaction (migration
 * 0049); each look reads those of the transactions its previous look could not see yet, so a transaction that
 * commits late (a long save, two transactions committing out of order) is never skipped and none is read twice.
 * It looks every CHANGE_FEED_MS, and at once when asked (`soon`: a request that may have changed something).
 */
export async function watchChangeNotices(
  db: Kysely<Database>,
  hub: Pick<ChangeHub, 'lookStarting' | 'relay'>,
  log: FastifyBaseLogger,
): Promise<Repeating> {
  let cursor: ChangeFeedCursor = (await readChangeNotices(db, null)).cursor;
  return everyFewMoments(
    CHANGE_FEED_MS,
    async () => {
      const looked = hub.lookStarting();
      try {
        const read = await ownLook(db, () => readChangeNotices(db, cursor));
        cursor = read.cursor;
        for (const payload of read.payloads) hub.relay(payload);
      } finally {
        // After a failed look too, so no stream waits on a database outage (the next look reads what this one missed).
        looked();
      }
    },
    log,
    'change notices not read; trying again',
  );
}
