import { sql } from 'kysely';
import type { DbExecutor } from './database.ts';

/**
 * Runs a read with a statement timeout inside a savepoint, so running out of time leaves the transaction usable;
 * undefined when it ran out. Only meant inside a transaction (withActor's), and only for reads: whatever happens, the
 * transaction goes back to the savepoint after it, which ends the short timeout (and would undo a write).
 *
 * Two statements besides the read: the savepoint and the timeout go together by the simple protocol (the budget is
 * a whole number of milliseconds, written into the text), and rolling back to the savepoint restores the timeout.
 */
export async function withinTimeBudget<T>(
  db: DbExecutor,
  ms: number,
  read: () => Promise<T>,
): Promise<T | undefined> {
  const budget = Math.max(1, Math.round(ms));
  // The savepoint comes first, so rolling back to it also undoes the timeout.
  await sql.raw(`savepoint within_budget; set local statement_timeout = ${budget}`).execute(db);
  try {
    return await read();
  } catch (error) {
    if ((error as { code?: string }).code === '57014') return undefined; // query_canceled: out of time
    throw error;
  } finally {
    await backToSavepoint(db);
  }
}

/**
 * The rollback itself runs under the short timeout: on a starved machine it can run out of time before it starts,
 * leaving the transaction aborted. A rollback to the savepoint is what an aborted transaction accepts, so it is tried
 * once more.
 */
async function backToSavepoint(db: DbExecutor): Promise<void> {
  const rollback = () => sql`rollback to savepoint within_budget`.execute(db);
  await rollback().catch((error: unknown) => {
    if ((error as { code?: string }).code !== '57014') throw error;
    return rollback();
  });
}
