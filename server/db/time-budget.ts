import { sql } from 'kysely';
import type { DbExecutor } from './database.ts';

/**
 * Runs a read with a statement timeout inside a savepoint, so running out of time leaves the transaction usable;
 * undefined when it ran out. Only meant inside a transaction (withActor's).
 */
export async function withinTimeBudget<T>(
  db: DbExecutor,
  ms: number,
  read: () => Promise<T>,
): Promise<T | undefined> {
  // The savepoint comes first, so rolling back to it also undoes the timeout.
  await sql`savepoint within_budget`.execute(db);
  const before = await sql<{ timeout: string }>`
    select current_setting('statement_timeout') as timeout, set_config('statement_timeout', ${`${ms}ms`}, true)`.execute(
    db,
  );
  let result: T;
  try {
    result = await read();
  } catch (error) {
    await sql`rollback to savepoint within_budget`.execute(db);
    if ((error as { code?: string }).code === '57014') return undefined; // query_canceled: out of time
    throw error;
  }
  try {
    // This statement still runs under the short timeout: on a starved machine even it can run out of time.
    await sql`select set_config('statement_timeout', ${before.rows[0]?.timeout ?? '0'}, true)`.execute(db);
  } catch (error) {
    if ((error as { code?: string }).code !== '57014') throw error;
    // Rolling back to the savepoint restores the timeout too; the read is done and wrote nothing.
    await sql`rollback to savepoint within_budget`.execute(db);
  }
  await sql`release savepoint within_budget`.execute(db);
  return result;
}
