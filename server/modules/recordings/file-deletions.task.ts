import { withActor, type Db } from '../../db/database.ts';
import { enqueueJob } from '../../jobs/enqueue-job.ts';
import type { JobTask } from '../../jobs/job-runner.ts';
import type { FileStore } from '../../storage/file-store.ts';
import { dueFileDeletions, forgetFileDeletions, nextFileDeletion } from './recordings.repository.ts';

/** The job queue's name for deleting the files of deleted recordings (queued by a trigger on recordings). */
export const FILE_DELETIONS_TASK = 'file-deletions';
const BATCH = 500;
/** Files removed at once: the disk's queue, not one round trip after another. */
const PARALLEL = 16;

/**
 * Deletes the files whose deletion is due, a batch at a time, and forgets them; a file already gone is no error
 * (a retry after a crash). Deletions held for later (files still being stored) get the job again at their time.
 * File times are real time: they measure how long a writer has had, not the product's clock.
 */
export async function deleteDueFiles(deps: { db: Db; files: FileStore }): Promise<number> {
  let deleted = 0;
  for (;;) {
    const keys = await withActor(deps.db, { kind: 'system' }, (trx) =>
      dueFileDeletions(trx, new Date(), BATCH),
    );
    for (let i = 0; i < keys.length; i += PARALLEL)
      await Promise.all(keys.slice(i, i + PARALLEL).map((key) => deps.files.remove(key)));
    await withActor(deps.db, { kind: 'system' }, (trx) => forgetFileDeletions(trx, keys));
    deleted += keys.length;
    if (keys.length < BATCH) break;
  }
  await withActor(deps.db, { kind: 'system' }, async (trx) => {
    const next = await nextFileDeletion(trx);
    if (next) await enqueueJob(trx, FILE_DELETIONS_TASK, {}, { jobKey: FILE_DELETIONS_TASK, runAt: next });
  });
  return deleted;
}

export function fileDeletionsTask(deps: { db: Db; files: FileStore }): JobTask {
  return async () => {
    await deleteDueFiles(deps);
  };
}
