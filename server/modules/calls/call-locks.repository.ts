import { sql } from 'kysely';
import { FINISHED_STATUSES, type CallStatus } from '#domain/calls/call-status.ts';
import type { DbExecutor } from '../../db/database.ts';

/*
 * The duplicate guard's state: one user's placements serialised, the global call lock, and the recent calls of a
 * number (domain/calls/call-guard.ts decides from these).
 */

/**
 * Serialises one user's call placements across requests, tabs and server instances for the rest of the transaction
 * (a transaction-scoped advisory lock on the user's id).
 */
export async function lockUserCalling(db: DbExecutor, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`calls:${userId}`}, 0))`.execute(db);
}

/**
 * What the duplicate guard needs, in one statement: the lock, and this number's calls that are recent or still going
 * on (one row each; a single row of nulls but the lock's time when there is none).
 */
export async function findGuardState(db: DbExecutor, userId: string, to: string, since: Date) {
  const rows = await sql<{
    lock_taken_at: Date | null;
    to_number: string | null;
    from_number: string;
    started_at: Date;
    status: CallStatus;
  }>`
    select (select taken_at from call_locks where user_id = ${userId}) as lock_taken_at,
      c.to_number, c.from_number, c.started_at, c.status
    from (values (1)) as one (n)
    left join calls c on c.user_id = ${userId} and c.to_number = ${to}
      and (c.started_at >= ${since} or c.status not in (${sql.join([...FINISHED_STATUSES])}))`.execute(db);
  return {
    lockTakenAt: rows.rows[0]?.lock_taken_at ?? null,
    recentCalls: rows.rows.flatMap((c) =>
      c.to_number === null
        ? []
        : [
            {
              to: c.to_number,
              from: c.from_number,
              startedAt: c.started_at,
              active: !FINISHED_STATUSES.includes(c.status),
            },
          ],
    ),
  };
}

export async function takeCallLock(
  db: DbExecutor,
  userId: string,
  requestId: string,
  now: Date,
): Promise<void> {
  await db
    .insertInto('call_locks')
    .values({ user_id: userId, request_id: requestId, taken_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ request_id: requestId, taken_at: now }))
    .execute();
}

/** Releases the lock this request took (a later request's lock is left alone). */
export async function releaseCallLock(db: DbExecutor, userId: string, requestId: string): Promise<void> {
  await db
    .deleteFrom('call_locks')
    .where('user_id', '=', userId)
    .where('request_id', '=', requestId)
    .execute();
}
