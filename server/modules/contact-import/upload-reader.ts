import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { finished, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { IMPORT_MESSAGES, type ImportFormat } from '#domain/contacts/contact-import.ts';
import { AppError } from '../../errors/app-error.ts';
import { readCsvRows } from './readers/read-csv.ts';
import { readVcardRows } from './readers/read-vcard.ts';
import { readXlsxRows } from './readers/read-xlsx.ts';
import { ImportFileError, type FileRow, type UnreadableRow } from './readers/file-rows.ts';

const tooLarge = (limit: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `The file is larger than the ${Math.round(limit / 1024 ** 2)} MB limit.`);

export const UPLOAD_CUT_OFF =
  'The upload was cut off before the whole file arrived (the connection closed). Nothing after that point was read.';

/**
 * The file of an import request: sent as the raw request body. Its declared size is checked before a byte is read
 * (413), and the bytes are counted as they arrive, so a body longer than it said is cut off too. When the client
 * goes away mid-upload (a closed tab, a dropped network), pipe alone would leave the reader waiting for bytes that
 * never come: the end of the body is watched, and a body that ends early fails the reader at once, so the import
 * ends, says so, and gives back what it holds.
 */
export function uploadedStream(request: FastifyRequest, limit: number): Readable {
  if (!(request.body instanceof Readable))
    throw new AppError(
      'UNSUPPORTED_FILE',
      'Send the file itself as the request body (application/octet-stream).',
    );
  const declared = Number(request.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (declared === 0) throw new AppError('VALIDATION_FAILED', IMPORT_MESSAGES.noData);
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      callback(seen > limit ? tooLarge(limit) : null, chunk);
    },
  });
  const body = request.body;
  body.pipe(counter);
  finished(body, (error) => {
    if (error && !counter.destroyed) counter.destroy(new ImportFileError(UPLOAD_CUT_OFF));
  });
  return counter;
}

export type OpenedRows = {
  rows: AsyncIterable<FileRow>;
  unreadable: UnreadableRow[];
  cleanup: () => Promise<void>;
};

/**
 * The rows of an uploaded file in the format its name announced. A workbook is a zip archive, readable only once
 * whole, so it is saved to a temporary file first (removed by cleanup); text formats are read as they arrive.
 */
export async function openRows(format: ImportFormat, upload: Readable): Promise<OpenedRows> {
  const unreadable: UnreadableRow[] = [];
  if (format === 'csv')
    return { rows: readCsvRows(upload, (r) => unreadable.push(r)), unreadable, cleanup: noop };
  if (format === 'vcard') return { rows: readVcardRows(upload), unreadable, cleanup: noop };
  const file = path.join(os.tmpdir(), `callcrm-import-${randomUUID()}.xlsx`);
  let size = 0;
  upload.on('data', (chunk: Buffer) => (size += chunk.length));
  try {
    await pipeline(upload, createWriteStream(file, { mode: 0o600 }));
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
  return { rows: readXlsxRows(file, size), unreadable, cleanup: () => rm(file, { force: true }) };
}

const noop = () => Promise.resolve();
