import type pg from 'pg';
import type { DuplicateMode, SkippedRow } from '#domain/contacts/contact-import.ts';
import { ACT_AS_SQL, actorParameters } from '../../db/database.ts';
import { writeContactBatch, type CopyLine } from '../contacts/public.ts';
import { queueBatchMatches, queueImportedRows } from '../queues/public.ts';
import { countBatch } from './import-records.repository.ts';

export type BatchResult = { created: number; updated: number; skipped: SkippedRow[] };

export type BatchJob = {
  importId: string;
  userId: string;
  queueId: string;
  duplicates: DuplicateMode;
  now: Date;
  matchExisting: boolean;
};

/**
 * Saves the batches of an import, each in its own transaction on a connection taken from the pool for that batch
 * only: a connection is held while a batch is being written, never while the file is still arriving, so an upload
 * that stalls or is cut off holds none. Each transaction writes the batch's contacts (the contacts module's
 * writeContactBatch), puts the ones it matched in the default queue, and moves the import's counts. Row-level
 * security holds throughout (the user's id is set per transaction; COPY goes to a temporary table, which
 * PostgreSQL allows), and per-statement change notices are held back (app.quiet).
 */
export function createBatchSaver(pool: pg.Pool, job: BatchJob, timings: Record<string, number> = {}) {
  const timed = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await work();
    } finally {
      timings[name] = (timings[name] ?? 0) + Math.round(performance.now() - start);
    }
  };
  /** Runs `work` in a transaction as the user, on a connection of its own, released whatever happens. */
  const inTransaction = async <T>(
    quiet: boolean,
    work: (client: pg.PoolClient) => Promise<T>,
  ): Promise<T> => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('begin');
      await client.query(ACT_AS_SQL, actorParameters({ kind: 'user', userId: job.userId }, { quiet }));
      const result = await work(client);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch((e: unknown) => (broken = e as Error));
      throw error;
    } finally {
      client.release(broken);
    }
  };

  return {
    save(rows: readonly CopyLine[]): Promise<BatchResult> {
      return inTransaction(true, async (client) => {
        const result = await writeContactBatch(client, job, rows, timed);
        if (job.matchExisting) await queueBatchMatches(client, job.userId, job.queueId);
        await countBatch(client, job.importId, result.created, result.updated, result.skipped.length);
        return result;
      });
    },
    /** Puts the contacts this import created from rows [fromRow, toRow] in the default queue; how many. */
    queueImported(fromRow: number, toRow: number): Promise<number> {
      return inTransaction(false, (client) =>
        timed('queueMs', () => queueImportedRows(client, job.userId, job.queueId, fromRow, toRow, job.now)),
      );
    },
  };
}
export type BatchSaver = ReturnType<typeof createBatchSaver>;
