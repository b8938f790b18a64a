import type pg from 'pg';

/**
 * A bulk write added at least this many contacts: PostgreSQL's picture of them is refreshed (decision 042). Below it,
 * a plan that reads a user's contacts to find one of them costs well under a millisecond.
 */
export const STATISTICS_REFRESH_ROWS = 1_000;

/**
 * Asks PostgreSQL to sample contacts and queue_members again (migration 0053), so a user whose contacts arrived since
 * the last sample is planned for as they are. Takes about a second per ten million rows; run it outside a request's
 * transaction (it holds a lock that only another ANALYZE, a VACUUM or a schema change waits for).
 */
export async function refreshContactStatistics(pool: pg.Pool): Promise<void> {
  await pool.query('select refresh_contact_statistics()');
}
