import type { z } from 'zod';
import { type BulkCallSummary, type StartBulkCallSchema } from '#domain/calls/bulk-call.schema.ts';
import { normalizePhone } from '#domain/contacts/phone.ts';
import { withActor, type DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { findSelectedContacts } from '../contacts/public.ts';
import { chooseCallerId, usesLocalPresence } from '../caller-ids/public.ts';
import { MISSING_FROM } from './calls.service.ts';
import { scheduleBulkCallStep } from './bulk-call-runner.ts';
import { cancelBulkCall, findBulkCall, insertBulkCall } from './bulk-calls.repository.ts';

export type BulkContext = Pick<
  AppContext,
  'db' | 'clock' | 'telephony' | 'defaultCallerId' | 'providerTimeoutMs' | 'instanceId'
>;

/**
 * Call Selected: a job with one item per selected contact that has a phone, in selection order
 * (name order for "all matching"). Contacts without a phone are counted, not called. The runner places the calls.
 */
export async function startBulkCall(
  ctx: BulkContext,
  userId: string,
  input: z.output<typeof StartBulkCallSchema>,
): Promise<BulkCallSummary> {
  return withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
    // The job's caller ID: the one chosen, else the default (each call may still pick the nearest, below).
    const from = await chooseCallerId(trx, userId, {
      requested: input.from,
      to: null,
      instanceDefault: ctx.defaultCallerId,
    });
    if (!from) throw new AppError('VALIDATION_FAILED', `${MISSING_FROM.title}: ${MISSING_FROM.description}`);
    const selection = input.selection;
    const contacts = await findSelectedContacts(trx, userId, selection, ctx.clock(), 10_000);
    if (contacts.length === 0) throw new AppError('VALIDATION_FAILED', 'No contacts selected');
    const callable = contacts.filter((c) => normalizePhone(c.phone));
    if (callable.length === 0)
      throw new AppError(
        'VALIDATION_FAILED',
        `Missing phone numbers: ${contacts.length} selected contact(s) don't have phone numbers.`,
      );
    // No caller ID chosen: each call from the one nearest its contact (decision 027), `from` the fallback.
    const localPresence = !input.from && (await usesLocalPresence(trx, userId));
    const jobId = await insertBulkCall(trx, userId, { from, localPresence }, callable);
    await scheduleBulkCallStep(trx, jobId);
    const summary = await findBulkCall(trx, userId, jobId);
    return { ...summary!, withoutPhone: contacts.length - callable.length };
  });
}

/** Stops a running bulk call of the user; what was not called yet is skipped. */
export async function stopBulkCall(db: DbExecutor, userId: string, id: string, now: Date): Promise<void> {
  if (!(await cancelBulkCall(db, userId, id, now)))
    throw new AppError('NOT_FOUND', 'No running bulk call with this id');
}
