import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { withActor, type Db, type DbExecutor } from '../../db/database.ts';
import { enqueueJob } from '../../jobs/enqueue-job.ts';
import type { FileStore } from '../../storage/file-store.ts';
import { deleteFileNow, holdFileForDeletion, keepFile } from './recordings.repository.ts';
import { FILE_DELETIONS_TASK } from './file-deletions.task.ts';

/** How long a file being stored is given before it counts as a dead writer's and is deleted. */
const STORING_GRACE_MS = 60 * 60 * 1000;

/**
 * Stores an audio file and saves its recording, so that no file is ever named by a recording before it is whole,
 * and no file outlives a writer that died: the key is held for deletion before the file is written, and released
 * in the transaction that saves its recording (`save`, which may decline: the file is then deleted at once).
 */
export async function storeRecordingFile<T>(
  deps: { db: Db; files: FileStore },
  file: {
    userId: string;
    folder: 'voicemail' | 'greeting' | 'call' | 'drop';
    extension: string;
    contentType: string;
  },
  source: Readable | Uint8Array,
  save: (trx: DbExecutor, stored: { key: string; size: number }) => Promise<T | null>,
): Promise<T | null> {
  const actor = { kind: 'user' as const, userId: file.userId };
  const key = `users/${file.userId}/${file.folder}/${randomUUID()}.${file.extension}`;
  await withActor(deps.db, actor, (trx) =>
    holdFileForDeletion(trx, key, new Date(Date.now() + STORING_GRACE_MS)),
  );
  const { size } = await deps.files.put(key, source, file.contentType);
  return withActor(deps.db, actor, async (trx) => {
    const saved = await save(trx, { key, size });
    if (saved === null) await deleteFileSoon(trx, key);
    else await keepFile(trx, key);
    return saved;
  });
}

/** The file is not wanted after all: its deletion falls due now. */
async function deleteFileSoon(trx: DbExecutor, key: string) {
  await deleteFileNow(trx, key);
  await enqueueJob(trx, FILE_DELETIONS_TASK, {}, { jobKey: FILE_DELETIONS_TASK });
}
