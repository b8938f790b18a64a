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
import {
  addFillChunk,
  advanceFill,
  countSelected,
  findFill,
  recordFill,
  saveFillError,
} from './queue-fill.repository.ts';

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
    const expected = await countSelected(trx, ids);
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
  const started = await recordFill(trx, userId, queueId, JSON.stringify(selection), expected, now);
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
    const queue = await findFill(trx, userId, queueId);
    if (!queue) return 'gone';
    if (!queue.fill_selection) return 'done';
    const selection = queue.fill_selection as FilterSelection;
    const matching = selectedIds(trx, userId, selection, queue.fill_asked_at ?? new Date());
    if (Array.isArray(matching)) return 'done';
    const after = queue.fill_after_id ? { name: queue.fill_after_name ?? '', id: queue.fill_after_id } : null;
    const result = await addFillChunk(trx, userId, queueId, matching, after, QUEUE_FILL_CHUNK);
    const step = result;
    const finished = step.seen < QUEUE_FILL_CHUNK;
    await advanceFill(trx, queueId, step, finished);
    return finished ? 'done' : 'more';
  });
}

async function recordFillError(db: Db, queueId: string, userId: string, message: string): Promise<void> {
  await withActor(db, { kind: 'user', userId }, (trx) => saveFillError(trx, queueId, message)).catch(
    () => undefined,
  );
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
