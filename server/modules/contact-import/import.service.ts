import { createHash } from 'node:crypto';
import { isOwnExportHeader } from '#domain/contacts/contact-csv.ts';
import {
  IMPORT_MESSAGES,
  isHeaderRow,
  REPORT_SKIPPED_LIMIT,
  suggestMapping,
  validateImportRow,
  type DuplicateMode,
  type ImportEvent,
  type ImportFormat,
  type ImportSource,
  type ImportMapping,
  type ImportPreview,
  type ImportReport,
  type SkippedRow,
} from '#domain/contacts/contact-import.ts';
import { FIRST_PACE, importPace, peopleWaited, type Pace } from '#domain/contacts/import-pace.ts';
import type pg from 'pg';
import { withActor } from '../../db/database.ts';
import { refreshContactStatistics, STATISTICS_REFRESH_ROWS } from '../../db/statistics.ts';
import { watchOthersBusy } from './others-busy.ts';
import { watchLoopDelay } from '../../process/event-loop-delay.ts';
import { watchCpuPressure } from '../../process/cpu-pressure.ts';
import type { AppContext } from '../../app-context.ts';
import { ImportFileError, type FileRow, type UnreadableRow } from './readers/file-rows.ts';
import { createBatchSaver } from './batch-saver.ts';
import { toCopyLine, type CopyLine } from '../contacts/public.ts';
import { finishImport, hasRunningImport, lockUserImports, startImport } from './import-records.repository.ts';
import { hasAnyContact } from '../contacts/public.ts';
import { ensureDefaultQueue } from '../queues/public.ts';
import { phoneCountryOf } from '../profiles/public.ts';
import { announceChange } from '../../realtime/announce-change.ts';

export const IMPORT_ALREADY_RUNNING =
  'Another import is still running for your account. Wait for it to finish, then import this file.';

export type ImportJob = {
  userId: string;
  fileName: string;
  format: ImportSource;
  rows: AsyncIterable<FileRow>;
  /** Rows the reader could not read, filled while rows are read. */
  unreadable: UnreadableRow[];
  mapping: ImportMapping;
  hasHeader: boolean;
  duplicates: DuplicateMode;
};

/**
 * Rows per batch (and per range queued); how many are saved at once, and the rests between them, follow importPace.
 * 2,000 (decision 051, after 048 measured it): less memory and shorter transactions than 10,000; the pace's busy
 * share leaves out the instance's own looks at the requests' pool, which over a batch this short it used to read as
 * people at work.
 */
export const IMPORT_BATCH_ROWS = 2_000;
const PROGRESS_EVERY = 10_000;
/**
 * The longest the reading of rows keeps the event loop before giving it a turn: requests wait behind it otherwise
 * (a turn every 500 rows held it 50–100 ms at a time on a busy floor; decision 044).
 */
const READ_SLICE_MS = 5;

type ImportContext = Pick<
  AppContext,
  'db' | 'pool' | 'bulkPool' | 'clock' | 'instanceId' | 'readCpuStalledMicros'
>;

/**
 * Imports a file's rows as the user's contacts, set-based and pipelined so a million rows fit in about a minute:
 * rows are read as they arrive and checked (a bad row is skipped with its reason, never stopping the rest); repeats
 * within the file are caught as they are read; batches of valid rows go to savers (two on an idle database, one with
 * rests while people work: decision 041) on connections of their own, that each match them to existing contacts
 * (skipping or updating them, as chosen) and insert the new ones with their place in the default queue, while
 * reading goes on. One change notice is sent at the end. Every valid row
 * carries an e-mail or a phone number, so running the same file again after an interruption adds no duplicates.
 */
export async function runImport(
  ctx: ImportContext,
  job: ImportJob,
  emit: (event: ImportEvent) => void,
  log: (phases: Record<string, number>) => void = () => undefined,
): Promise<ImportReport> {
  const started = performance.now();
  const asUser = <T>(work: Parameters<typeof withActor<T>>[2]) =>
    withActor(ctx.db, { kind: 'user', userId: job.userId }, work);
  // One moment for the import's record and its rows' stamps: its new contacts are found again by it (migration 0014).
  const now = ctx.clock();
  const importId = await asUser(async (trx) => {
    // One import at a time per account: two imports of one file at once would both find a row new and create it
    // twice. Decided under a lock on the account, so two started together cannot both pass.
    await lockUserImports(trx, job.userId);
    if (await hasRunningImport(trx, job.userId)) throw new ImportFileError(IMPORT_ALREADY_RUNNING);
    return startImport(trx, job, ctx.instanceId, now);
  });
  const queueId = await asUser((trx) => ensureDefaultQueue(trx, job.userId));
  // Rows are matched to the contacts the account already had; in an empty account there are none to look for.
  const matchExisting = await asUser((trx) => hasAnyContact(trx, job.userId));
  // Numbers without a country code are read in the user's country (Settings → Profile).
  const phoneCountry = await asUser((trx) => phoneCountryOf(trx, job.userId));
  const timings: Record<string, number> = {};
  const saver = createBatchSaver(
    ctx.bulkPool,
    { importId, userId: job.userId, queueId, duplicates: job.duplicates, now, matchExisting },
    timings,
  );
  const tally = { read: 0, lastRow: 0, created: 0, updated: 0, skippedCount: 0, queued: 0 };
  const skipped: SkippedRow[] = [];
  const skip = (rows: readonly SkippedRow[]) => {
    tally.skippedCount += rows.length;
    for (const row of rows) if (skipped.length < REPORT_SKIPPED_LIMIT) skipped.push(row);
  };
  let phase: 'reading' | 'queueing' = 'reading';
  const progress = () =>
    emit({
      phase,
      type: 'progress',
      read: tally.read,
      created: tally.created,
      updated: tally.updated,
      skipped: tally.skippedCount,
      queued: tally.queued,
    });
  const loop = watchLoopDelay();
  const memory = { rssMb: 0, heapUsedMb: 0, externalMb: 0 };
  const memorySampler = setInterval(() => {
    const m = process.memoryUsage();
    memory.rssMb = Math.max(memory.rssMb, Math.round(m.rss / 2 ** 20));
    memory.heapUsedMb = Math.max(memory.heapUsedMb, Math.round(m.heapUsed / 2 ** 20));
    memory.externalMb = Math.max(memory.externalMb, Math.round((m.external + m.arrayBuffers) / 2 ** 20));
  }, 500);
  const inFlight = new Set<Promise<void>>();
  let pace: Pace = FIRST_PACE;
  // Watched from the first batch on: the import's own set-up above used the requests' pool.
  const othersBusy = watchOthersBusy(ctx.pool, ctx.db);
  const cpu = watchCpuPressure(ctx.readCpuStalledMicros);
  // After a piece of work that took `ms`: people at work on the same database, so step back (decisions 041, 043,
  // 062).
  const stepBack = async (ms: number) => {
    const seen = { batchMs: ms, ...othersBusy.seen(), cpuStalled: await cpu.seen() };
    pace = importPace(pace, seen);
    timings.restMs = (timings.restMs ?? 0) + pace.restMs;
    if (seen.waited) timings.waitedRests = (timings.waitedRests ?? 0) + 1;
    else if (peopleWaited(seen)) timings.cpuStalledRests = (timings.cpuStalledRests ?? 0) + 1;
    if (pace.restMs > 0) await new Promise((resolve) => setTimeout(resolve, pace.restMs));
  };
  // A holder, not a variable: the savers' callbacks set it, which narrowing cannot see.
  const failed: { error: Error | null } = { error: null };
  try {
    const dispatch = async (batch: CopyLine[]) => {
      while (inFlight.size >= pace.savers) await Promise.race(inFlight);
      if (failed.error) throw failed.error;
      const began = performance.now();
      const work = saver
        .save(batch)
        .then(async (result) => {
          tally.created += result.created;
          tally.updated += result.updated;
          skip(result.skipped);
          progress();
          // The slot stays taken while resting.
          await stepBack(performance.now() - began);
        })
        .catch((error: unknown) => {
          failed.error ??= error instanceof Error ? error : new Error(String(error));
        })
        .finally(() => inFlight.delete(work));
      inFlight.add(work);
    };

    const valid = await readRows({ ...job, phoneCountry }, tally, skip, dispatch, progress);
    await Promise.all(inFlight);
    if (failed.error) throw failed.error;
    if (tally.read === 0) throw new ImportFileError(IMPORT_MESSAGES.noData);
    if (valid === 0) throw new ImportFileError(IMPORT_MESSAGES.noValid);
    // The contacts are in and searchable; now their places in the default queue, by ranges of rows at the same pace,
    // each range told as it is done.
    phase = 'queueing';
    progress();
    for (let first = 1; first <= tally.lastRow;) {
      const began = performance.now();
      const ranges: Promise<number>[] = [];
      for (let n = 0; n < pace.savers && first <= tally.lastRow; n++, first += IMPORT_BATCH_ROWS)
        ranges.push(saver.queueImported(first, Math.min(tally.lastRow, first + IMPORT_BATCH_ROWS - 1)));
      await Promise.all(ranges);
      tally.queued = Math.min(1, (first - 1) / tally.lastRow);
      progress();
      await stepBack(performance.now() - began);
    }

    const report = await asUser((trx) =>
      finishImport(trx, importId, {
        status: 'done',
        totalRows: tally.read,
        lastRow: tally.lastRow,
        created: tally.created,
        updated: tally.updated,
        skipped: tally.skippedCount,
        skippedRows: skipped.sort((a, b) => a.row - b.row),
        error: null,
        finishedAt: ctx.clock(),
      }),
    );
    await refreshStatistics(ctx.bulkPool, tally.created, timings);
    await notifyContactsChanged(ctx, job.userId);
    const loopDelay = loop.read();
    log({
      rows: tally.read,
      totalMs: Math.round(performance.now() - started),
      ...timings,
      loopDelayMaxMs: loopDelay.maxMs,
      loopDelayP99Ms: loopDelay.p99Ms,
      ...memory,
    });
    return report;
  } catch (error) {
    // Batches already being written finish (or fail) first, so the counts below are what was really saved.
    await Promise.allSettled(inFlight);
    // The contacts saved join the default queue, as a complete import's do.
    if (tally.created > 0) await saver.queueImported(1, tally.lastRow).catch(() => undefined);
    await refreshStatistics(ctx.bulkPool, tally.created, timings);
    const saved = tally.created + tally.updated;
    const message =
      error instanceof ImportFileError && saved === 0
        ? error.message
        : saved > 0
          ? `The import stopped after saving ${saved.toLocaleString('en-US')} contacts. Run the same file again: the contacts already saved will be skipped as duplicates.`
          : 'The import failed. Nothing was saved; please try again.';
    await asUser((trx) =>
      finishImport(trx, importId, {
        status: 'failed',
        totalRows: tally.read,
        lastRow: tally.lastRow,
        created: tally.created,
        updated: tally.updated,
        skipped: tally.skippedCount,
        skippedRows: [],
        error: message,
        finishedAt: ctx.clock(),
      }),
    ).catch(() => undefined);
    if (saved > 0) await notifyContactsChanged(ctx, job.userId).catch(() => undefined);
    throw new ImportFileError(message, { cause: error });
  } finally {
    clearInterval(memorySampler);
    othersBusy.stop();
    loop.stop();
  }
}

/**
 * After an import that added many contacts, PostgreSQL samples them (decision 042): until then it plans for this user
 * as one with next to none, and sending them a campaign read half their contacts per message. Its failure does not
 * fail the import (autovacuum samples the table in the end); it is counted in the import's logged phases.
 */
async function refreshStatistics(pool: pg.Pool, created: number, timings: Record<string, number>) {
  if (created < STATISTICS_REFRESH_ROWS) return;
  const started = performance.now();
  try {
    await refreshContactStatistics(pool);
  } catch {
    timings.statisticsFailed = 1;
  }
  timings.statisticsMs = Math.round(performance.now() - started);
}

/**
 * 64 bits of SHA-1 as an 8-character string (one byte a character): about one chance in 30 million of any collision
 * in a file of a million rows. Half the memory of 16 base64 characters sliced from 27, which kept the 27 alive too
 * (a million keys: 51 MB, was 104).
 */
const digest = (key: string) => createHash('sha1').update(key).digest().toString('latin1', 0, 8);

/**
 * Reads and checks every row, handing valid ones to the savers in batches. A row repeating an earlier one of the
 * file (same e-mail; or, without an e-mail, same phone number) is skipped here, so no two batches ever hold the
 * same contact and the savers never race to create it twice.
 */
async function readRows(
  job: ImportJob & { phoneCountry: string },
  tally: { read: number; lastRow: number },
  skip: (rows: readonly SkippedRow[]) => void,
  dispatch: (batch: CopyLine[]) => Promise<void>,
  progress: () => void,
): Promise<number> {
  const seenEmail = new Map<string, number>();
  const seenPhone = new Map<string, number>();
  let batch: CopyLine[] = [];
  let first = true;
  let ownExport = false;
  let valid = 0;
  let sliceStarted = performance.now();
  for await (const { row, cells } of job.rows) {
    tally.lastRow = row;
    if (first) {
      first = false;
      ownExport = isOwnExportHeader(cells);
      if (job.hasHeader) continue;
    }
    tally.read += 1;
    const result = validateImportRow(cells, job.mapping, { ownExport, phoneCountry: job.phoneCountry });
    if (!result.ok) skip([{ row, reason: result.reason }]);
    else {
      // Keys are kept as short digests: a string sliced out of a parsed chunk would keep the whole chunk alive.
      const emailKey = result.contact.email ? digest(result.contact.email.toLowerCase()) : undefined;
      const phoneKey = result.contact.phoneE164 ? digest(result.contact.phoneE164) : undefined;
      const earlier = emailKey ? seenEmail.get(emailKey) : phoneKey ? seenPhone.get(phoneKey) : undefined;
      if (earlier !== undefined)
        skip([
          { row, reason: `Same ${emailKey ? 'e-mail' : 'phone number'} as row ${earlier} of this file` },
        ]);
      else {
        if (emailKey) seenEmail.set(emailKey, row);
        else if (phoneKey) seenPhone.set(phoneKey, row);
        valid += 1;
        batch.push(toCopyLine(row, result.contact));
        if (batch.length >= IMPORT_BATCH_ROWS) {
          await dispatch(batch);
          batch = [];
        }
      }
    }
    if (tally.read % PROGRESS_EVERY === 0) progress();
    // Rows already parsed are handed over in microtasks, which never let the event loop run: give it a turn.
    if (performance.now() - sliceStarted > READ_SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStarted = performance.now();
    }
  }
  if (batch.length > 0) await dispatch(batch);
  skip(job.unreadable);
  tally.read += job.unreadable.length;
  return valid;
}

/** The one change notice of an import (per-statement notices were held back while it saved). */
async function notifyContactsChanged(ctx: ImportContext, userId: string): Promise<void> {
  await announceChange(ctx.db, { topic: 'contacts', op: 'INSERT', id: '*', userId, role: null });
}

/**
 * The mapping step's view of a file: its first rows, whether the first is a header, and the
 * columns matched by header name or, without one, the spec's column order.
 */
export async function previewImport(
  format: ImportFormat,
  rows: AsyncIterable<FileRow>,
  limit = 10,
): Promise<ImportPreview> {
  const taken: string[][] = [];
  for await (const { cells } of rows) {
    taken.push(cells);
    if (taken.length > limit) break;
  }
  if (taken.length === 0) throw new ImportFileError(IMPORT_MESSAGES.noData);
  const header = isHeaderRow(taken[0]!) ? taken[0]! : null;
  const data = header ? taken.slice(1) : taken.slice(0, limit);
  const columnCount = Math.max(header?.length ?? 0, ...data.map((r) => r.length));
  return {
    format,
    header,
    rows: data,
    columnCount,
    mapping: suggestMapping(header, columnCount),
    ownExport: isOwnExportHeader(taken[0]!),
  };
}
