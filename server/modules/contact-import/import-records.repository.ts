import {
  SkippedRowSchema,
  type DuplicateMode,
  type ImportFormat,
  type ImportReport,
  type SkippedRow,
} from '#domain/contacts/contact-import.ts';
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
  format: ImportFormat;
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

export async function startImport(
  db: DbExecutor,
  job: { userId: string; fileName: string; format: ImportFormat; duplicates: DuplicateMode },
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
