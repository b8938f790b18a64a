import { withActor } from '../../db/database.ts';
import type { JobTask } from '../../jobs/job-runner.ts';
import type { AppContext } from '../../app-context.ts';
import { deleteExpiredRecordings } from './recordings.repository.ts';

/** The job queue's name for the daily deletion of recordings past their retention (run by the queue's crontab). */
export const RECORDING_RETENTION_TASK = 'recording-retention';
/** Once a day at 03:17 UTC, on one instance (the job queue's crontab runs each entry once, whatever the instances). */
export const RECORDING_RETENTION_CRONTAB = `17 3 * * * ${RECORDING_RETENTION_TASK}`;
const BATCH = 5000;

/**
 * Deletes voicemails and call recordings older than their owner's retention (decision 030), a batch per
 * transaction so a large backlog never holds one long lock; their files follow through the deletion queue.
 */
export async function deleteExpired(ctx: Pick<AppContext, 'db' | 'clock'>): Promise<number> {
  const now = ctx.clock();
  let deleted = 0;
  let after: Date | null = null;
  for (;;) {
    const from: Date | null = after;
    const batch: { deleted: number; newest: Date | null } = await withActor(
      ctx.db,
      { kind: 'system' },
      (trx) => deleteExpiredRecordings(trx, now, BATCH, from),
    );
    deleted += batch.deleted;
    after = batch.newest;
    if (batch.deleted < BATCH) return deleted;
  }
}

export function recordingRetentionTask(ctx: AppContext): JobTask {
  return async () => {
    await deleteExpired(ctx);
  };
}
