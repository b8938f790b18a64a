import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { CSV_BYTE_ORDER_MARK } from '#domain/contacts/contact-csv.ts';
import { withActorClient } from './database.ts';

// Lines end in \n, as COPY writes them; spreadsheets read either ending.
const csvLine = (cells: readonly string[]) =>
  `${cells.map((c) => `"${c.replaceAll('"', '""')}"`).join(',')}\n`;

/**
 * Streams a query's rows as CSV straight from PostgreSQL (COPY … TO STDOUT inside the user's row-security
 * transaction): byte-order mark, the header, then every row double-quoted, comma-separated. Never built in memory;
 * backpressure reaches the database, so memory stays flat at any size. A failure midway (or a client that went
 * away) destroys the stream, so a download fails rather than ending short without a word. `query` must carry its
 * values inlined (COPY takes no bind parameters).
 */
export function streamCsv(
  pool: pg.Pool,
  userId: string,
  header: readonly string[],
  query: string,
  onError: (error: unknown) => void,
): Readable {
  const out = new PassThrough();
  out.write(CSV_BYTE_ORDER_MARK + csvLine(header));
  withActorClient(pool, { kind: 'user', userId }, (client) =>
    pipeline(client.query(copyTo(`copy (${query}) to stdout with (format csv, force_quote *)`)), out),
  ).catch((error: unknown) => {
    onError(error);
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return out;
}
