import { sql } from 'kysely';
import { BULK_SKIP_REASONS } from '#domain/calls/bulk-call.schema.ts';
import { BULK_CALL_SPACING_MS } from '#domain/calls/call-guard.ts';
import { withActor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import { placeCall } from './calls.service.ts';
import type { BulkContext } from './bulk-calls.service.ts';

/** What a refused call of a bulk job counts as (spec part 2 §5.4 reasons). */
function outcomeOf(error: unknown): { state: 'skipped' | 'failed'; reason: string } {
  if (error instanceof AppError) {
    if (error.code === 'DUPLICATE_PREVENTED' || error.code === 'CONCURRENT_PREVENTED')
      return { state: 'skipped', reason: BULK_SKIP_REASONS.deduplication };
    if (error.code === 'DO_NOT_CALL') return { state: 'skipped', reason: BULK_SKIP_REASONS.doNotCall };
    if (error.code === 'NOT_FOUND') return { state: 'skipped', reason: BULK_SKIP_REASONS.deleted };
    if (error.message.startsWith('Invalid call configuration'))
      return { state: 'skipped', reason: BULK_SKIP_REASONS.sameNumbers };
    return { state: 'failed', reason: error.message };
  }
  return { state: 'failed', reason: 'Could not connect to calling service' };
}

/**
 * One step of the runner: claims the next due job (pushing its next turn a second ahead, so jobs are spaced 1000 ms
 * and two instances never work one job at once), places the call of its next pending item as the job's owner, and
 * records the outcome. A job with nothing pending is done. Returns whether there was anything to do.
 */
export async function runBulkCallStep(ctx: BulkContext, spacingMs = BULK_CALL_SPACING_MS): Promise<boolean> {
  const claimed = await withActor(ctx.db, { kind: 'system' }, async (trx) => {
    const job = await sql<{ id: string; user_id: string; from_number: string }>`
      update bulk_call_jobs set next_at = now() + make_interval(secs => ${spacingMs / 1000})
      where id = (select id from bulk_call_jobs where status = 'running' and next_at <= now()
                  order by next_at limit 1 for update skip locked)
      returning id, user_id, from_number`.execute(trx);
    const found = job.rows[0];
    if (!found) return null;
    const item = await trx
      .selectFrom('bulk_call_items')
      .select(['position', 'contact_id', 'request_id'])
      .where('job_id', '=', found.id)
      .where('state', '=', 'pending')
      .orderBy('position')
      .limit(1)
      .executeTakeFirst();
    if (!item) {
      await trx
        .updateTable('bulk_call_jobs')
        .set({ status: 'done', finished_at: ctx.clock() })
        .where('id', '=', found.id)
        .execute();
      return { done: true as const };
    }
    return { job: found, item };
  });
  if (!claimed) return false;
  if ('done' in claimed) return true;
  const { job, item } = claimed;
  let result: { state: 'called' | 'skipped' | 'failed'; reason: string | null; callId: string | null };
  if (!item.contact_id) result = { state: 'skipped', reason: BULK_SKIP_REASONS.deleted, callId: null };
  else {
    try {
      const call = await placeCall(ctx, job.user_id, {
        contactId: item.contact_id,
        requestId: item.request_id,
        from: job.from_number,
      });
      result =
        call.status === 'failed'
          ? { state: 'failed', reason: call.error, callId: call.id }
          : { state: 'called', reason: null, callId: call.id };
    } catch (error) {
      result = { ...outcomeOf(error), callId: null };
    }
  }
  await withActor(ctx.db, { kind: 'system' }, (trx) =>
    trx
      .updateTable('bulk_call_items')
      .set({ state: result.state, reason: result.reason, call_id: result.callId, done_at: ctx.clock() })
      .where('job_id', '=', job.id)
      .where('position', '=', item.position)
      .where('state', '=', 'pending')
      .execute(),
  );
  return true;
}

/** Works through bulk calls in the background, in every instance (claims make that safe). */
export function startBulkCallRunner(
  ctx: BulkContext,
  options: { spacingMs: number; tickMs: number },
): () => void {
  let stopped = false;
  let busy = false;
  const timer = setInterval(() => {
    if (busy || stopped) return;
    busy = true;
    void runBulkCallStep(ctx, options.spacingMs)
      .catch(() => false)
      .finally(() => (busy = false));
  }, options.tickMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
