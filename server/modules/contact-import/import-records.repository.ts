import type pg from 'pg';
import {
  SkippedRowSchema,
  type DuplicateMode,
  type ImportSource,
  type ImportReport,
  type SkippedRow,
} from '#domain/contacts/contact-import.ts';
import { sql } from 'kysely';
import type { DbExecutor } from '../../db/database.ts';

const COLUMNS = [
  'id',
  'file_name',
  'format',
  'duplicates',
  'status',
  'total_rows',
  'created',
  'updated',
  'skipped',
  'skipped_rows',
  'error',
  'created_at',
  'finished_at',
] as const;

type Row = {
  id: string;
  file_name: string;
  format: ImportSource;
  duplicates: DuplicateMode;
  status: 'running' | 'done' | 'failed';
  total_rows: number;
  created: number;
  updated: number;
  skipped: number;
  skipped_rows: unknown;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
};

const toReport = (r: Row, withRows: boolean): ImportReport => ({
  id: r.id,
  fileName: r.file_name,
  format: r.format,
  duplicates: r.duplicates,
  status: r.status,
  totalRows: r.total_rows,
  created: r.created,
  updated: r.updated,
  skipped: r.skipped,
  skippedRows: withRows ? SkippedRowSchema.array().parse(r.skipped_rows) : [],
  error: r.error,
  createdAt: r.created_at.toISOString(),
  finishedAt: r.finished_at?.toISOString() ?? null,
});

/** Serialises starting imports for one account, across requests and instances, for the transaction. */
export async function lockUserImports(db: DbExecutor, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`imports:${userId}`}, 0))`.execute(db);
}

/** Whether one of the account's imports is still running (one whose server died is closed by the janitor). */
export async function hasRunningImport(db: DbExecutor, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('contact_imports')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return row !== undefined;
}

export async function startImport(
  db: DbExecutor,
  job: { userId: string; fileName: string; format: ImportSource; duplicates: DuplicateMode },
  instanceId: string,
  now: Date,
): Promise<string> {
  const row = await db
    .insertInto('contact_imports')
    .values({
      user_id: job.userId,
      file_name: job.fileName.slice(0, 255),
      format: job.format,
      duplicates: job.duplicates,
      error: null,
      created_at: now,
      rows_at: now,
      instance_id: instanceId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function finishImport(
  db: DbExecutor,
  id: string,
  result: {
    status: 'done' | 'failed';
    totalRows: number;
    lastRow: number;
    created: number;
    updated: number;
    skipped: number;
    skippedRows: SkippedRow[];
    error: string | null;
    finishedAt: Date;
  },
): Promise<ImportReport> {
  const row = await db
    .updateTable('contact_imports')
    .set({
      status: result.status,
      total_rows: result.totalRows,
      last_row: result.lastRow,
      created: result.created,
      updated: result.updated,
      skipped: result.skipped,
      skipped_rows: JSON.stringify(result.skippedRows),
      error: result.error,
      finished_at: result.finishedAt,
    })
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toReport(row, true);
}

/** The user's recent imports, newest first, without their skipped rows. */
export async function findImports(db: DbExecutor, userId: string): Promise<ImportReport[]> {
  const rows = await db
    .selectFrom('contact_imports')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(20)
    .execute();
  return rows.map((r) => toReport(r, false));
}

export async function findImport(
  db: DbExecutor,
  userId: string,
  id: string,
): Promise<ImportReport | undefined> {
  const row = await db
    .selectFrom('contact_imports')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toReport(row, true) : undefined;
}

/** Imports marked running, with the instance running each (any user's: the system actor reads them). */
export async function findRunningImports(db: DbExecutor) {
  return db
    .selectFrom('contact_imports')
    .select(['id', 'user_id', 'instance_id', 'created_at', 'created', 'updated', 'skipped'])
    .where('status', '=', 'running')
    .orderBy('created_at')
    .limit(100)
    .execute();
}

/**
 * Takes an abandoned import for repair, if it is still running and no other round holds it (its row lock, skipped
 * rather than waited for): true when this transaction now owns the repair.
 */
export async function claimAbandonedImport(db: DbExecutor, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('contact_imports')
    .select('id')
    .where('id', '=', id)
    .where('status', '=', 'running')
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Ends an import whose server stopped while it ran, as failed, with the counts its saved batches recorded, and says
 * how to finish it. Only while it is still running, so an import that ends meanwhile keeps its own outcome.
 */
export async function failAbandonedImport(
  db: DbExecutor,
  id: string,
  saved: number,
  now: Date,
): Promise<boolean> {
  const message =
    saved > 0
      ? `The server stopped while this import was running, after saving ${saved.toLocaleString('en-US')} contacts. Run the same file again: the contacts already saved will be skipped as duplicates.`
      : 'The server stopped while this import was running, before any contact was saved. Please run it again.';
  const result = await db
    .updateTable('contact_imports')
    .set({ status: 'failed', error: message, finished_at: now })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The import's running counts, moved with each batch (on its connection) so an import cut short still says what it saved. */
export async function countBatch(
  client: pg.PoolClient,
  importId: string,
  created: number,
  updated: number,
  skipped: number,
): Promise<void> {
  await client.query(
    `update contact_imports set created = created + $2, updated = updated + $3, skipped = skipped + $4 where id = $1`,
    [importId, created, updated, skipped],
  );
}
