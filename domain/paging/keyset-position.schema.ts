import { z } from 'zod';

const POSITION =
  /^(\d{4})-(\d\d)-(\d\d)T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?Z\|([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** Whether Y-M-D is a real calendar day (not 30 February). */
function isCalendarDay(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/**
 * Where a page of a newest-first list starts: the `next` of the page before, "<time to the microsecond>|<id>"
 * (server/db/keyset.ts). Checked to the day, so a made-up position is a 400 and never reaches the database.
 */
export const KeysetPositionSchema = z.string().refine((value) => {
  const match = POSITION.exec(value);
  return match !== null && isCalendarDay(Number(match[1]), Number(match[2]), Number(match[3]));
}, 'Invalid page position');
