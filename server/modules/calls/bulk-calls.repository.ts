import { BULK_SKIP_REASONS, bulkRequestId, type BulkCallSummary } from '#domain/calls/bulk-call.schema.ts';
import type { DbExecutor } from '../../db/database.ts';

/** A new bulk call of these contacts, in this order; returns its id. */
export async function insertBulkCall(
  db: DbExecutor,
  userId: string,
  caller: { from: string; localPresence: boolean },
  contacts: { id: string; first_name: string; last_name: string }[],
): Promise<string> {
  const job = await db
    .insertInto('bulk_call_jobs')
    .values({
      user_id: userId,
      from_number: caller.from,
      local_presence: caller.localPresence,
      total: contacts.length,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('bulk_call_items')
    .values(
      contacts.map((c, position) => ({
        job_id: job.id,
        position,
        user_id: userId,
        contact_id: c.id,
        contact_name: `${c.first_name} ${c.last_name}`.trim().slice(0, 250),
        request_id: bulkRequestId(job.id, position),
      })),
    )
    .execute();
  return job.id;
}

export async function findBulkCall(
  db: DbExecutor,
  userId: string,
  id: string,
): Promise<BulkCallSummary | undefined> {
  const job = await db
    .selectFrom('bulk_call_jobs')
    .select(['id', 'status', 'from_number', 'local_presence', 'total', 'created_at', 'finished_at'])
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!job) return undefined;
  const items = await db
    .selectFrom('bulk_call_items')
    .select(['state', 'contact_name', 'reason'])
    .where('job_id', '=', id)
    .orderBy('position')
    .execute();
  const count = (state: string) => items.filter((i) => i.state === state).length;
  return {
    id: job.id,
    status: job.status,
    from: job.from_number,
    localPresence: job.local_presence,
    total: job.total,
    pending: count('pending'),
    success: count('called'),
    skipped: count('skipped'),
    failed: count('failed'),
    withoutPhone: 0,
    errors: items
      .filter((i) => i.state === 'failed' || i.state === 'skipped')
      .map((i) => ({ contactName: i.contact_name, error: i.reason ?? '' })),
    createdAt: job.created_at.toISOString(),
    finishedAt: job.finished_at?.toISOString() ?? null,
  };
}

/** Cancels a running bulk call: what was not called yet is skipped. False when none of the user's is running. */
export async function cancelBulkCall(
  db: DbExecutor,
  userId: string,
  id: string,
  now: Date,
): Promise<boolean> {
  const job = await db
    .updateTable('bulk_call_jobs')
    .set({ status: 'canceled', finished_at: now })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .where('status', '=', 'running')
    .returning('id')
    .executeTakeFirst();
  if (!job) return false;
  await db
    .updateTable('bulk_call_items')
    .set({ state: 'skipped', reason: BULK_SKIP_REASONS.canceled, done_at: now })
    .where('job_id', '=', id)
    .where('state', '=', 'pending')
    .execute();
  return true;
}

/**
 * The next item of a running bulk call, its row locked so no other step of it runs at the same moment; a bulk call
 * with nothing pending is marked done. Null when it is not running (canceled, done, gone).
 */
export async function claimNextBulkItem(db: DbExecutor, jobId: string, now: Date) {
  const job = await db
    .selectFrom('bulk_call_jobs')
    .select(['id', 'user_id', 'from_number', 'local_presence', 'status'])
    .where('id', '=', jobId)
    .forUpdate()
    .executeTakeFirst();
  if (!job || job.status !== 'running') return null;
  const item = await db
    .selectFrom('bulk_call_items')
    .select(['position', 'contact_id', 'request_id'])
    .where('job_id', '=', job.id)
    .where('state', '=', 'pending')
    .orderBy('position')
    .limit(1)
    .executeTakeFirst();
  if (item) return { job, item };
  await db
    .updateTable('bulk_call_jobs')
    .set({ status: 'done', finished_at: now })
    .where('id', '=', job.id)
    .execute();
  return { done: true as const };
}

/** The outcome of a bulk item's call, if it is still pending. */
export async function recordBulkItem(
  db: DbExecutor,
  jobId: string,
  position: number,
  result: { state: 'called' | 'skipped' | 'failed'; reason: string | null; callId: string | null },
  now: Date,
): Promise<void> {
  await db
    .updateTable('bulk_call_items')
    .set({ state: result.state, reason: result.reason, call_id: result.callId, done_at: now })
    .where('job_id', '=', jobId)
    .where('position', '=', position)
    .where('state', '=', 'pending')
    .execute();
}
