import { sql, type RawBuilder } from 'kysely';

/*
 * Keyset paging over (a timestamp, an id), newest first. PostgreSQL keeps microseconds and JavaScript dates only
 * milliseconds, so the page position is written and read as text in SQL: a row never falls between two pages
 * because its time was rounded (rows made in one statement share a time to the microsecond).
 */

/** The page position of a row: "<time to the microsecond>|<id>". */
export function keysetPosition(timeColumn: string, idColumn: string): RawBuilder<string> {
  return sql<string>`to_char(${sql.ref(timeColumn)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '|' || ${sql.ref(idColumn)}`;
}

/** Rows after a page position, newest first: (time, id) below the position's. */
export function afterKeyset(timeColumn: string, idColumn: string, position: string): RawBuilder<boolean> {
  const [at, id] = position.split('|') as [string, string];
  return sql<boolean>`(${sql.ref(timeColumn)}, ${sql.ref(idColumn)}) < (${at}::timestamptz, ${id}::uuid)`;
}

/** A page from `limit + 1` rows read: the first `limit`, and the position after them when there are more. */
export function pageOf<T extends { position: string }>(
  rows: T[],
  limit: number,
): { shown: T[]; next: string | null } {
  const shown = rows.slice(0, limit);
  return { shown, next: rows.length > limit ? (shown.at(-1)?.position ?? null) : null };
}
