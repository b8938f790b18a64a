import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import iconv from 'iconv-lite';
import type { ImportEvent, ImportReport } from '#domain/contacts/contact-import.ts';
import type { App } from '../app.ts';
import { asCookie, type Session } from './test-app.ts';

/** A workbook with the given rows on its first sheet, as a spreadsheet program would save it. */
export async function buildWorkbook(rows: (string | number | Date | null)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Contacts');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A zip that calls itself a workbook and inflates to `megabytes` of zeros. */
export async function buildZipBomb(megabytes: number): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('xl/workbook.xml', '<workbook/>');
  zip.file('xl/worksheets/sheet1.xml', Buffer.alloc(megabytes * 1024 * 1024, 0x20));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}

/** vCards as phones and address books write them: 2.1 quoted-printable in Latin-1, 3.0 folded, 4.0. */
export function buildVcards(): Buffer {
  const v21 = [
    'BEGIN:VCARD',
    'VERSION:2.1',
    'N;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:M=FCller;J=FCrgen;;;',
    'TEL;CELL:+49 170 1234567',
    'ORG;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:B=E4ckerei;',
    'NOTE;ENCODING=QUOTED-PRINTABLE;CHARSET=ISO-8859-1:Gr=FC=DFe an die=',
    ' Familie',
    'END:VCARD',
  ].join('\r\n');
  const v30 = [
    'BEGIN:VCARD',
    'VERSION:3.0',
    'FN:Zoë Saldana',
    'N:Saldana;Zoë;;;',
    'EMAIL;TYPE=INTERNET;TYPE=pref:zoe@example.com',
    'TEL;TYPE=WORK:(555) 010-2000',
    'TITLE:Head of Partner',
    ' ships',
    'CATEGORIES:vip,film',
    'PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRgABAQAAAQABAAD',
    ' /2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL',
    'END:VCARD',
  ].join('\r\n');
  const v40 = [
    'BEGIN:VCARD',
    'VERSION:4.0',
    'FN:Nobody Reachable',
    'N:Reachable;Nobody;;;',
    'END:VCARD',
  ].join('\n');
  // The 2.1 card's own bytes are ASCII (quoted-printable); the 3.0 card is UTF-8: one file, two eras.
  return Buffer.concat([iconv.encode(`${v21}\r\n`, 'latin1'), Buffer.from(`${v30}\r\n${v40}\r\n`, 'utf8')]);
}

/** Runs an import through the API and reads its newline-delimited answer. */
export async function importFile(
  app: App,
  owner: Session,
  fileName: string,
  body: Buffer | string,
  options: { mapping: (string | null)[]; header: boolean; duplicates?: 'skip' | 'update' },
): Promise<{ status: number; events: ImportEvent[]; report: ImportReport | null; error: string | null }> {
  const query = new URLSearchParams({
    fileName,
    header: String(options.header),
    duplicates: options.duplicates ?? 'skip',
    mapping: JSON.stringify(options.mapping),
  });
  const response = await app.inject({
    method: 'POST',
    url: `/api/contacts/imports?${query.toString()}`,
    headers: { ...asCookie(owner), 'content-type': 'application/octet-stream' },
    payload: typeof body === 'string' ? Buffer.from(body, 'utf8') : body,
  });
  if (response.statusCode !== 200)
    return {
      status: response.statusCode,
      events: [],
      report: null,
      error: response.json<{ message: string }>().message,
    };
  const events = response.body
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ImportEvent);
  const last = events.at(-1);
  return {
    status: 200,
    events,
    report: last?.type === 'done' ? last.report : null,
    error: last?.type === 'error' ? last.message : null,
  };
}

export async function previewFile(app: App, owner: Session, fileName: string, body: Buffer | string) {
  return app.inject({
    method: 'POST',
    url: `/api/contacts/imports/preview?fileName=${encodeURIComponent(fileName)}`,
    headers: { ...asCookie(owner), 'content-type': 'application/octet-stream' },
    payload: typeof body === 'string' ? Buffer.from(body, 'utf8') : body,
  });
}
