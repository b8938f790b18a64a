import { BULK_SKIP_REASONS } from '#domain/calls/bulk-call.schema.ts';
import { BULK_CALL_SPACING_MS } from '#domain/calls/call-guard.ts';
import { withActor, type DbExecutor } from '../../db/database.ts';
import { enqueueJob } from '../../jobs/enqueue-job.ts';
import type { JobTask } from '../../jobs/job-runner.ts';
import { AppError } from '../../errors/app-error.ts';
import { placeCall } from './calls.service.ts';
import type { BulkContext } from './bulk-calls.service.ts';
import { claimNextBulkItem, recordBulkItem } from './bulk-calls.repository.ts';

/** What a refused call of a bulk job counts as (reasons). */
function outcomeOf(error: unknown): { state: 'skipped' | 'failed'; reason: string } {
  if (error instanceof AppError) {
    if (error.code === 'DUPLICATE_PREVENTED' || error.code === 'CONCURRENT_PREVENTED')
      return { state: 'skipped', reason: BULK_SKIP_REASONS.deduplication };
    if (error.code === 'DO_NOT_CALL') return { state: 'skipped', reason: BULK_SKIP_REASONS.doNotCall };
    if (error.code === 'CONSENT_REFUSED') return { state: 'skipped', reason: error.message };
    if (error.code === 'NOT_FOUND') return { state: 'skipped', reason: BULK_SKIP_REASONS.deleted };
    if (error.message.startsWith('Invalid call configuration'))
      return { state: 'skipped', reason: BULK_SKIP_REASONS.sameNumbers };
    return { state: 'failed', reason: error.message };
  }
  return { state: 'failed', reason: 'Could not connect to calling service' };
}

export const BULK_CALL_TASK = 'bulk-call-step';

/** Queues the next step of a bulk call, in the caller's transaction; one waiting step per bulk call at most. */
export function scheduleBulkCallStep(db: DbExecutor, jobId: string, runAt?: Date): Promise<void> {
  return enqueueJob(db, BULK_CALL_TASK, { jobId }, { jobKey: `bulk-call:${jobId}`, ...(runAt && { runAt }) });
}

/**
 * One step of a bulk call, run by the job queue (docs/decisions/016-job-queue.md): locks the bulk call (so no
 * other step of it runs at the same moment), places the call of its next pending item as the job's owner, and
 * records the outcome together with the next step, `spacingMs` later. A bulk call with nothing pending is done; a
 * canceled one stops. A step run again after a crash places the same item under the same request id, which the
 * calls service answers with the call already made, so no contact is called twice.
 */
export async function runBulkCallStep(
  ctx: BulkContext,
  jobId: string,
  spacingMs = BULK_CALL_SPACING_MS,
): Promise<'called' | 'done' | 'stopped'> {
  const claimed = await withActor(ctx.db, { kind: 'system' }, (trx) =>
    claimNextBulkItem(trx, jobId, ctx.clock()),
  );
  if (!claimed) return 'stopped';
  if ('done' in claimed) return 'done';
  const { job, item } = claimed;
  let result: { state: 'called' | 'skipped' | 'failed'; reason: string | null; callId: string | null };
  if (!item.contact_id) result = { state: 'skipped', reason: BULK_SKIP_REASONS.deleted, callId: null };
  else {
    try {
      const call = await placeCall(ctx, job.user_id, {
        contactId: item.contact_id,
        requestId: item.request_id,
        // Local presence: left to the calls service, which picks the caller ID nearest this contact.
        from: job.local_presence ? undefined : job.from_number,
      });
      result =
        call.status === 'failed'
          ? { state: 'failed', reason: call.error, callId: call.id }
          : { state: 'called', reason: null, callId: call.id };
    } catch (error) {
      result = { ...outcomeOf(error), callId: null };
    }
  }
  await withActor(ctx.db, { kind: 'system' }, async (trx) => {
    await recordBulkItem(trx, job.id, item.position, result, ctx.clock());
    await scheduleBulkCallStep(trx, job.id, new Date(Date.now() + spacingMs));
  });
  return 'called';
}

/** The job queue's task for bulk calls: one call per run, each run queueing the next. */
export function bulkCallTask(ctx: BulkContext, spacingMs: number): JobTask {
  return async (payload) => {
    const { jobId } = payload as { jobId: string };
    await runBulkCallStep(ctx, jobId, spacingMs);
  };
}
