import { sql } from 'kysely';
import type { DbExecutor } from '../db/database.ts';
import { browserPresenceKeyText } from './browser-presence.ts';

/**
 * Whether the user has the app open in a browser on any instance (browser-presence.ts): some session of this
 * database holds the user's presence lock. A bigint advisory key shows in pg_locks as its high and low 32 bits.
 */
export async function isBrowserOpen(db: DbExecutor, userId: string): Promise<boolean> {
  const result = await sql<{ open: boolean }>`
    with lock as (select hashtextextended(${browserPresenceKeyText(userId)}, 0) as key)
    select exists (
      select 1 from pg_locks l, lock
      where l.locktype = 'advisory' and l.granted and l.objsubid = 1
        and l.database = (select oid from pg_database where datname = current_database())
        and l.classid = oid((lock.key >> 32) & 4294967295) and l.objid = oid(lock.key & 4294967295)
    ) as open`.execute(db);
  return result.rows[0]?.open ?? false;
}
