import { sql } from 'kysely';
import {
  QUEUE_FILL_INLINE_MAX,
  QUEUE_MESSAGES,
  type AddToQueueResult,
} from '#domain/contacts/queue.schema.ts';
import { withActor, type Db, type DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import { enqueueJob } from '../../jobs/enqueue-job.ts';
import type { JobTask } from '../../jobs/job-runner.ts';
import { selectedIds } from '../contacts/public.ts';
import { addQueueMembers } from './queues.repository.ts';

export const QUEUE_FILL_TASK = 'queue-fill';
/** Contacts added per transaction while filling: small enough that a walk waits at most a moment for the queue. */
export const QUEUE_FILL_CHUNK = 10_000;

type Selection = Parameters<typeof selectedIds>[2];
type FilterSelection = Exclude<Selection, { ids: string[] }>;

/**
 * Adds a selection to a queue. Ticked ids and small selections join at once; a selection matching more than
 * QUEUE_FILL_INLINE_MAX contacts is recorded on the queue and a job adds it in the background, in name order, a
 * chunk per transaction (docs/decisions/016-job-queue.md). A queue takes one background selection at a time.
 */
export async function addSelectionToQueue(
  trx: DbExecutor,
  userId: string,
  queueId: string,
  selection: Selection,
  now: Date,
): Promise<AddToQueueResult> {
  const ids = selectedIds(trx, userId, selection, now);
  if (!('ids' in selection) && !Array.isArray(ids)) {
    const counted = await trx
      .selectFrom(ids.as('matching'))
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const expected = Number(counted.n);
    if (expected > QUEUE_FILL_INLINE_MAX) {
      await startFill(trx, userId, queueId, selection, expected, now);
      return { added: 0, alreadyInQueue: 0, adding: expected };
    }
  }
  const { added, considered } = await addQueueMembers(trx, userId, queueId, ids);
  return { added, alreadyInQueue: considered - added, adding: 0 };
}

async function startFill(
  trx: DbExecutor,
  userId: string,
  queueId: string,
  selection: FilterSelection,
  expected: number,
  now: Date,
): Promise<void> {
  const started = await trx
    .updateTable('power_dialer_queues')
    .set({
      fill_selection: JSON.stringify(selection),
      fill_asked_at: now,
      fill_after_name: null,
      fill_after_id: null,
      fill_added: 0,
      fill_expected: expected,
      fill_error: null,
      last_modified: now,
    })
    .where('id', '=', queueId)
    .where('user_id', '=', userId)
    .where('fill_selection', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!started) throw new AppError('CONFLICT', QUEUE_MESSAGES.stillFilling);
  await enqueueJob(
    trx,
    QUEUE_FILL_TASK,
    { queueId, userId },
    { jobKey: `queue-fill:${queueId}`, maxAttempts: 25 },
  );
}

/**
 * One chunk of a background fill, as the queue's owner: the next QUEUE_FILL_CHUNK contacts of the selection after
 * the last one added (name order), added with the new position of the fill in the same transaction, so a crash
 * loses nothing and a step run again adds nothing twice. 'gone' when the queue was deleted meanwhile.
 */
export async function runQueueFillStep(
  db: Db,
  queueId: string,
  userId: string,
): Promise<'more' | 'done' | 'gone'> {
  return withActor(db, { kind: 'user', userId }, async (trx) => {
    const queue = await trx
      .selectFrom('power_dialer_queues')
      .select(['fill_selection', 'fill_asked_at', 'fill_after_name', 'fill_after_id'])
      .where('id', '=', queueId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!queue) return 'gone';
    if (!queue.fill_selection) return 'done';
    const selection = queue.fill_selection as FilterSelection;
    const matching = selectedIds(trx, userId, selection, queue.fill_asked_at ?? new Date());
    if (Array.isArray(matching)) return 'done';
    const after = queue.fill_after_id ? { name: queue.fill_after_name ?? '', id: queue.fill_after_id } : null;
    const chunk = matching
      .select('contacts.name_sort')
      .$if(after !== null, (q) =>
        q.where(sql<boolean>`(contacts.name_sort, contacts.id) > (${after!.name}, ${after!.id}::uuid)`),
      )
      .orderBy('contacts.name_sort')
      .orderBy('contacts.id')
      .limit(QUEUE_FILL_CHUNK);
    const result = await sql<{
      seen: number;
      added: number;
      last_name: string | null;
      last_id: string | null;
    }>`
      with chunk as (${chunk}),
      inserted as (
        insert into queue_members (queue_id, contact_id, user_id)
        select ${queueId}, id, ${userId} from chunk order by name_sort, id
        on conflict (queue_id, contact_id) do nothing
        returning 1
      ),
      last as (select name_sort, id from chunk order by name_sort desc, id desc limit 1)
      select (select count(*)::int from chunk) as seen, (select count(*)::int from inserted) as added,
             (select name_sort from last) as last_name, (select id from last) as last_id`.execute(trx);
    const step = result.rows[0]!;
    const finished = step.seen < QUEUE_FILL_CHUNK;
    await trx
      .updateTable('power_dialer_queues')
      .set((eb) => ({
        fill_added: eb('fill_added', '+', step.added),
        fill_after_name: finished ? null : step.last_name,
        fill_after_id: finished ? null : step.last_id,
        fill_error: null,
        ...(finished && { fill_selection: null, fill_asked_at: null }),
      }))
      .where('id', '=', queueId)
      .execute();
    return finished ? 'done' : 'more';
  });
}

async function recordFillError(db: Db, queueId: string, userId: string, message: string): Promise<void> {
  await withActor(db, { kind: 'user', userId }, (trx) =>
    trx
      .updateTable('power_dialer_queues')
      .set({ fill_error: message.slice(0, 1000) })
      .where('id', '=', queueId)
      .execute(),
  ).catch(() => undefined);
}

/**
 * The job queue's task for background fills: chunk after chunk until the selection is in. A failure is recorded on
 * the queue (the screens show it) and the job is retried with back-off from where it stopped; a server shutting
 * down stops between chunks and the job runs again on the next instance to pick it up.
 */
export function queueFillTask(db: Db): JobTask {
  return async (payload, helpers) => {
    const { queueId, userId } = payload as { queueId: string; userId: string };
    for (;;) {
      if (helpers.abortSignal?.aborted) throw new Error('The server stopped while adding contacts; resuming');
      let step: 'more' | 'done' | 'gone';
      try {
        step = await runQueueFillStep(db, queueId, userId);
      } catch (error) {
        const { attempts, max_attempts: max } = helpers.job;
        const why = (error as Error).message;
        await recordFillError(
          db,
          queueId,
          userId,
          attempts >= max ? `stopped after ${attempts} attempts: ${why}` : why,
        );
        throw error;
      }
      if (step !== 'more') return;
    }
  };
}
