/** One row of an imported file: its number as a spreadsheet would show it (the header is row 1), and its cells. */
export type FileRow = { row: number; cells: string[] };

/** A row the reader itself could not read (a broken CSV record), reported and skipped like an invalid one. */
export type UnreadableRow = { row: number; reason: string };

/** The file as a whole cannot be read: what to tell the person, answered before anything is saved. */
export class ImportFileError extends Error {}
