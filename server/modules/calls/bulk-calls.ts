import { sql } from 'kysely';
import type { z } from 'zod';
import {
  BULK_SKIP_REASONS,
  bulkRequestId,
  type BulkCallSummary,
  type StartBulkCallSchema,
} from '#domain/calls/bulk-call.schema.ts';
import { BULK_CALL_SPACING_MS } from '#domain/calls/call-guard.ts';
import { normalizePhone } from '#domain/contacts/phone.ts';
import { withActor, type DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { matchingIdsQuery } from '../contacts/contacts.repository.ts';
import { resolveCallerId } from './caller-ids.repository.ts';
import { MISSING_FROM, placeCall } from './calls.service.ts';

type BulkContext = Pick<
  AppContext,
  'db' | 'clock' | 'telephony' | 'defaultCallerId' | 'providerTimeoutMs' | 'instanceId'
>;

/**
 * Call Selected (spec part 2 §5.4): a job with one item per selected contact that has a phone, in selection order
 * (name order for "all matching"). Contacts without a phone are counted, not called. The runner places the calls.
 */
export async function startBulkCall(
  ctx: BulkContext,
  userId: string,
  input: z.output<typeof StartBulkCallSchema>,
): Promise<BulkCallSummary> {
  return withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
    const from = await resolveCallerId(trx, userId, input.from, ctx.defaultCallerId);
    if (!from) throw new AppError('VALIDATION_FAILED', `${MISSING_FROM.title}: ${MISSING_FROM.description}`);
    const selection = input.selection;
    let q = trx
      .selectFrom('contacts')
      .select(['id', 'first_name', 'last_name', 'phone'])
      .where('user_id', '=', userId);
    q =
      'ids' in selection
        ? q.where('id', 'in', selection.ids)
        : q.where(
            'id',
            'in',
            matchingIdsQuery(
              trx,
              userId,
              selection.allMatching,
              selection.allMatching.tab ?? 'all',
              ctx.clock(),
            ),
          );
    const contacts = await q.orderBy('name_sort').orderBy('id').limit(10_000).execute();
    if (contacts.length === 0) throw new AppError('VALIDATION_FAILED', 'No contacts selected');
    const callable = contacts.filter((c) => normalizePhone(c.phone));
    if (callable.length === 0)
      throw new AppError(
        'VALIDATION_FAILED',
        `Missing phone numbers: ${contacts.length} selected contact(s) don't have phone numbers.`,
      );
    const job = await trx
      .insertInto('bulk_call_jobs')
      .values({ user_id: userId, from_number: from, total: callable.length })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('bulk_call_items')
      .values(
        callable.map((c, position) => ({
          job_id: job.id,
          position,
          user_id: userId,
          contact_id: c.id,
          contact_name: `${c.first_name} ${c.last_name}`.trim().slice(0, 250),
          request_id: bulkRequestId(job.id, position),
        })),
      )
      .execute();
    const summary = await findBulkCall(trx, userId, job.id);
    return { ...summary!, withoutPhone: contacts.length - callable.length };
  });
}

export async function findBulkCall(
  db: DbExecutor,
  userId: string,
  id: string,
): Promise<BulkCallSummary | undefined> {
  const job = await db
    .selectFrom('bulk_call_jobs')
    .select(['id', 'status', 'from_number', 'total', 'created_at', 'finished_at'])
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

export async function cancelBulkCall(db: DbExecutor, userId: string, id: string, now: Date): Promise<void> {
  const job = await db
    .updateTable('bulk_call_jobs')
    .set({ status: 'canceled', finished_at: now })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .where('status', '=', 'running')
    .returning('id')
    .executeTakeFirst();
  if (!job) throw new AppError('NOT_FOUND', 'No running bulk call with this id');
  await db
    .updateTable('bulk_call_items')
    .set({ state: 'skipped', reason: BULK_SKIP_REASONS.canceled, done_at: now })
    .where('job_id', '=', id)
    .where('state', '=', 'pending')
    .execute();
}

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
