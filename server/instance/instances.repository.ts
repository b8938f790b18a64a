import { sql } from 'kysely';
import type { DbExecutor } from '../db/database.ts';
import { presenceKeyText } from './instance-connection.ts';

/** Records a starting instance, for operators (Admin → Diagnostics) and for tidying up after it. */
export async function registerInstance(
  db: DbExecutor,
  instance: { id: string; hostname: string; pid: number },
  now: Date,
): Promise<void> {
  await db
    .insertInto('server_instances')
    .values({ ...instance, hostname: instance.hostname.slice(0, 255), started_at: now, last_seen_at: now })
    .onConflict((oc) => oc.column('id').doUpdateSet({ last_seen_at: now }))
    .execute();
}

export async function touchInstance(db: DbExecutor, id: string, now: Date): Promise<void> {
  await db.updateTable('server_instances').set({ last_seen_at: now }).where('id', '=', id).execute();
}

/**
 * Whether the instance is running: its own connection holds its presence lock (instance-connection.ts). Trying
 * the lock for the length of one statement succeeds only when nobody holds it, and gives it back at once.
 */
export async function isInstanceAlive(db: DbExecutor, id: string): Promise<boolean> {
  const result = await sql<{ free: boolean }>`
    select pg_try_advisory_xact_lock(hashtextextended(${presenceKeyText(id)}, 0)) as free`.execute(db);
  return result.rows[0]?.free === false;
}

/** Instances unseen for a week are gone: their rows are removed (their work was closed long before). */
export async function pruneInstances(db: DbExecutor, now: Date): Promise<void> {
  await db
    .deleteFrom('server_instances')
    .where('last_seen_at', '<', new Date(now.getTime() - 7 * 24 * 3600 * 1000))
    .execute();
}
