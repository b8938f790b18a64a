import { z } from 'zod';
import type { ContactSort } from '#domain/contacts/contact-list.schema.ts';
import { AppError } from '../../errors/app-error.ts';

/** The stored sort key behind each sort of the list; the id breaks ties, so every row has one exact position. */
export const SORT_COLUMN = {
  createdAt: 'created_at',
  name: 'name_sort',
  lastCallDate: 'last_call_sort',
} as const satisfies Record<ContactSort, string>;

export type CursorPosition = { sort: ContactSort; key: string; id: string };

// PostgreSQL's own text form of a timestamptz (what `::text` gives back), or -infinity for "never called".
const TIMESTAMP_TEXT =
  /^(-infinity|\d{4}-\d{2}-\d{2} ([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?[+-](0\d|1[0-5])(:[0-5]\d){0,2})$/;

const CursorSchema = z.tuple([z.enum(['createdAt', 'name', 'lastCallDate']), z.string().max(400), z.uuid()]);

/** A cursor is the row's sort key and id, opaque to the browser (base64url JSON). */
export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.sort, position.key, position.id])).toString('base64url');
}

/** Reads a cursor back, refusing one that is malformed or made for another sort (a 400, never a database error). */
export function decodeCursor(token: string, sort: ContactSort): CursorPosition {
  let parsed: z.infer<typeof CursorSchema> | undefined;
  try {
    parsed = CursorSchema.parse(JSON.parse(Buffer.from(token, 'base64url').toString('utf8')));
  } catch {
    parsed = undefined;
  }
  const valid =
    parsed !== undefined &&
    parsed[0] === sort &&
    (sort === 'name' || (TIMESTAMP_TEXT.test(parsed[1]) && isRealTimestamp(parsed[1])));
  if (!valid || !parsed) {
    throw new AppError(
      'VALIDATION_FAILED',
      'This page position is no longer valid. Go back to the first page.',
    );
  }
  return { sort: parsed[0], key: parsed[1], id: parsed[2] };
}

/** Rejects well-formed but impossible dates (month 13), which PostgreSQL would refuse with an error. */
function isRealTimestamp(text: string): boolean {
  if (text === '-infinity') return true;
  const [date = ''] = text.split(' ');
  const [y, m, d] = date.split('-').map(Number);
  const probe = new Date(Date.UTC(y ?? 0, (m ?? 0) - 1, d ?? 0));
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === (m ?? 0) - 1 && probe.getUTCDate() === d;
}
