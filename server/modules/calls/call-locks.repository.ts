import { sql } from 'kysely';
import { FINISHED_STATUSES } from '#domain/calls/call-status.ts';
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

/** What the duplicate guard needs: the lock, and this number's calls that are recent or still going on. */
export async function findGuardState(db: DbExecutor, userId: string, to: string, since: Date) {
  const lock = await db
    .selectFrom('call_locks')
    .select('taken_at')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const calls = await db
    .selectFrom('calls')
    .select(['to_number', 'from_number', 'started_at', 'status'])
    .where('user_id', '=', userId)
    .where('to_number', '=', to)
    .where((eb) => eb.or([eb('started_at', '>=', since), eb('status', 'not in', [...FINISHED_STATUSES])]))
    .execute();
  return {
    lockTakenAt: lock?.taken_at ?? null,
    recentCalls: calls.map((c) => ({
      to: c.to_number,
      from: c.from_number,
      startedAt: c.started_at,
      active: !FINISHED_STATUSES.includes(c.status),
    })),
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
