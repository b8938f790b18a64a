/**
 * The contacts CSV (export): its columns, file name and cell rules, shared by the export and by the
 * import that reads our own exports back.
 *
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return) as a formula, so such cells are
 * written with a leading apostrophe (the OWASP "CSV injection" defence). A value that itself starts with an
 * apostrophe gets one too, so the import can undo the escape exactly: what we export, our import reads back without
 * loss (decision 000), apart from the spec's own rule that commas in notes become semicolons.
 */
export const EXPORT_COLUMNS = [
  'First Name',
  'Last Name',
  'Email',
  'Phone',
  'Company',
  'Title',
  'Notes',
  'Status',
  'Tags',
  'Last Updated',
] as const;

export const CSV_BYTE_ORDER_MARK = '\uFEFF';

export { escapeCell, unescapeCell } from '../text/spreadsheet-cells.ts';

/** Notes keep the spec's rule: commas turned into semicolons. */
export const notesForExport = (notes: string | null) => (notes ?? '').replaceAll(',', ';');

/** Tags joined with semicolons, the separator the import splits on. */
export const tagsForExport = (tags: readonly string[]) => tags.join(';');

/** contacts_backup_{date}.csv with the date as yyyy-MM-dd. */
export function exportFileName(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `contacts_backup_${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}.csv`;
}

/** Whether a header row is exactly our export's, so its cells are unescaped on import. */
export function isOwnExportHeader(cells: readonly string[]): boolean {
  return (
    cells.length === EXPORT_COLUMNS.length &&
    cells.every((c, i) => c.replace(CSV_BYTE_ORDER_MARK, '').trim() === EXPORT_COLUMNS[i])
  );
}
