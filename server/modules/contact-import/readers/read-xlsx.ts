import ExcelJS from 'exceljs';
import yauzl from 'yauzl';
import { ImportFileError, type FileRow } from './file-rows.ts';

/** What a real spreadsheet inflates to at most: 20 times its size, and never more than 2 GB, in 20,000 parts. */
const MAX_RATIO = 20;
const MAX_INFLATED_BYTES = 2 * 1024 ** 3;
const MAX_ENTRIES = 20_000;

const notASpreadsheet = () => new ImportFileError('This file is not a valid Excel workbook (.xlsx).');
const bomb = () =>
  new ImportFileError('This workbook would inflate far beyond its size when opened, so it was not read.');

/**
 * Guards against zip bombs before the spreadsheet reader touches the archive: the sizes the archive declares are
 * checked against its own size, then every part is inflated once, counting bytes, with yauzl refusing any part
 * that inflates beyond what it declared. Nothing is kept in memory.
 */
export async function checkWorkbookArchive(path: string, fileSize: number): Promise<void> {
  const limit = Math.min(MAX_INFLATED_BYTES, Math.max(fileSize * MAX_RATIO, 50 * 1024 ** 2));
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(
      path,
      { lazyEntries: true, validateEntrySizes: true, strictFileNames: false },
      (error, file) => (error || !file ? reject(notASpreadsheet()) : resolve(file)),
    ),
  );
  try {
    let declared = 0;
    let inflated = 0;
    let entries = 0;
    let hasWorkbook = false;
    await new Promise<void>((resolve, reject) => {
      zip.on('error', () => reject(notASpreadsheet()));
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        entries += 1;
        declared += entry.uncompressedSize;
        if (entry.fileName === 'xl/workbook.xml') hasWorkbook = true;
        if (entries > MAX_ENTRIES || declared > limit) return reject(bomb());
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (error, stream) => {
          if (error || !stream) return reject(notASpreadsheet());
          stream.on('data', (chunk: Buffer) => {
            inflated += chunk.length;
            if (inflated > limit) {
              stream.destroy();
              reject(bomb());
            }
          });
          stream.on('error', () => reject(bomb()));
          stream.on('end', () => zip.readEntry());
        });
      });
      zip.readEntry();
    });
    if (!hasWorkbook) throw notASpreadsheet();
  } finally {
    zip.close();
  }
}

/** A cell as text: dates as ISO dates, numbers without exponents, rich text, links and formulas by their text. */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date)
    return value.toISOString().slice(0, value.getUTCHours() || value.getUTCMinutes() ? 16 : 10);
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(0) : String(value);
  if (typeof value === 'string' || typeof value === 'boolean') return String(value);
  if ('richText' in value) return value.richText.map((r) => r.text).join('');
  if ('hyperlink' in value) return cellText(value.text);
  if ('formula' in value || 'sharedFormula' in value)
    return cellText((value as ExcelJS.CellFormulaValue).result);
  if ('error' in value) return '';
  return '';
}

/** Rows of the workbook's first sheet, streamed (the archive is checked first). Empty rows are left out. */
export async function* readXlsxRows(path: string, fileSize: number): AsyncGenerator<FileRow> {
  await checkWorkbookArchive(path, fileSize);
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(path, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'emit',
  });
  try {
    for await (const sheet of workbook) {
      for await (const row of sheet) {
        const values = Array.isArray(row.values) ? row.values.slice(1) : [];
        const cells = Array.from(values, (v) => cellText(v).trim());
        if (cells.some(Boolean)) yield { row: row.number, cells };
      }
      break; // the first sheet only
    }
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    throw notASpreadsheet();
  }
}
