import type { z } from 'zod';
import {
  BULK_SKIP_REASONS,
  bulkRequestId,
  type BulkCallSummary,
  type StartBulkCallSchema,
} from '#domain/calls/bulk-call.schema.ts';
import { normalizePhone } from '#domain/contacts/phone.ts';
import { withActor, type DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { selectedIds } from '../contacts/public.ts';
import { resolveCallerId } from '../caller-ids/public.ts';
import { MISSING_FROM } from './calls.service.ts';
import { scheduleBulkCallStep } from './bulk-call-runner.ts';

export type BulkContext = Pick<
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
    q = q.where('id', 'in', selectedIds(trx, userId, selection, ctx.clock()));
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
    await scheduleBulkCallStep(trx, job.id);
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
