import { sql } from 'kysely';
import type { DbExecutor } from '../db/database.ts';

/**
 * Where a change feed's previous look left off: the transactions its snapshot could not see yet (those at or past
 * its xmax, and those in progress at the time). Every notice of any other transaction was visible to that look.
 */
export type ChangeFeedCursor = { xmax: string; inProgress: string[] };

/** PostgreSQL's snapshot text, `xmin:xmax:xip,xip,...`, as a cursor. */
export function cursorOfSnapshot(snapshot: string): ChangeFeedCursor {
  const [, xmax = '0', xip = ''] = snapshot.split(':');
  return { xmax, inProgress: xip === '' ? [] : xip.split(',') };
}

/**
 * The notices written by transactions the previous look could not see and that have committed since, in the
 * order they were written, with the cursor for the next look (one statement, so one snapshot decides both).
 * Without a cursor it only answers one: a feed starts from now.
 */
export async function readChangeNotices(
  db: DbExecutor,
  after: ChangeFeedCursor | null,
): Promise<{ cursor: ChangeFeedCursor; payloads: string[] }> {
  if (!after) {
    const start = await sql<{ snapshot: string }>`select pg_current_snapshot()::text as snapshot`.execute(db);
    return { cursor: cursorOfSnapshot(start.rows[0]?.snapshot ?? '0:0:'), payloads: [] };
  }
  const result = await sql<{ snapshot: string; payloads: string[] }>`
    select pg_current_snapshot()::text as snapshot,
      coalesce((select json_agg(payload order by id) from change_notices
        where xid >= ${after.xmax}::xid8 or xid = any(${after.inProgress}::xid8[])), '[]'::json) as payloads`.execute(
    db,
  );
  const row = result.rows[0];
  return row
    ? { cursor: cursorOfSnapshot(row.snapshot), payloads: row.payloads }
    : { cursor: after, payloads: [] };
}

/** Writes a notice by hand, as the notify triggers do (seen by the feeds once the caller's transaction commits). */
export async function insertChangeNotice(db: DbExecutor, payload: string): Promise<void> {
  await db.insertInto('change_notices').values({ payload }).execute();
}

/** How long a notice is kept: far longer than any feed takes between looks. */
export const CHANGE_NOTICE_KEEP_MINUTES = 10;

export async function pruneChangeNotices(db: DbExecutor): Promise<number> {
  const result = await sql`
    delete from change_notices
    where created_at < now() - make_interval(mins => ${CHANGE_NOTICE_KEEP_MINUTES})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
