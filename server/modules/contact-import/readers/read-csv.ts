import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { notTextReason } from '#domain/text/control-characters.ts';
import { createDecoder, detectEncoding } from './text-encoding.ts';
import { ImportFileError, type FileRow, type UnreadableRow } from './file-rows.ts';

const SAMPLE_BYTES = 64 * 1024;
const MAX_RECORD_CHARS = 1_000_000;
const FEED_CHARS = 16 * 1024;

/** The delimiter of the first line: comma, semicolon (European spreadsheets) or tab, whichever occurs most. */
export function sniffDelimiter(firstLine: string): ',' | ';' | '\t' {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const ch of firstLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch in counts) counts[ch as keyof typeof counts] += 1;
  }
  const best = (Object.entries(counts) as [keyof typeof counts, number][]).sort((a, b) => b[1] - a[1])[0]!;
  return best[1] > 0 ? best[0] : ',';
}

/**
 * Rows of a CSV file as they arrive (streamed: memory stays flat at any size). The encoding and delimiter are read
 * off the first 64 KB, and a file whose first 64 KB are not text is refused. A record the parser cannot read (an unclosed quote, a record over a megabyte) is reported
 * through onUnreadable and skipped; the rows around it go on.
 */
export async function* readCsvRows(
  input: Readable,
  onUnreadable: (row: UnreadableRow) => void,
): AsyncGenerator<FileRow> {
  const head: Buffer[] = [];
  let headSize = 0;
  const iterator = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  while (headSize < SAMPLE_BYTES) {
    const next = await iterator.next();
    if (next.done) break;
    head.push(next.value);
    headSize += next.value.length;
  }
  const sample = Buffer.concat(head);
  const encoding = detectEncoding(sample);
  const text = createDecoder(encoding).write(sample);
  // Binary data read as text would create contacts of noise: refused before a row is read.
  const notText = notTextReason(text, encoding === 'windows-1252');
  if (notText) throw new ImportFileError(notText);
  const firstLine = text.split(/\r?\n/)[0] ?? '';
  const parser = parse({
    delimiter: sniffDelimiter(firstLine.replace(/^\uFEFF/, '')),
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    max_record_size: MAX_RECORD_CHARS,
    info: true,
    on_skip: (error) => {
      onUnreadable({
        row: Number((error as { records?: number } | undefined)?.records ?? 0) + 1,
        reason: `Unreadable row: ${error?.message ?? 'malformed CSV'}`,
      });
      return undefined;
    },
  });
  // Feed the parser by hand: the sample was already taken from the stream.
  const feed = (async () => {
    const fresh = createDecoder(encoding);
    // The parser works through what it is given in one go: feed it 16 KB at a time, letting the event loop (and
    // the server's other requests) run in between.
    const write = async (text: string) => {
      for (let i = 0; i < text.length; i += FEED_CHARS) {
        if (!parser.write(text.slice(i, i + FEED_CHARS))) await once(parser, 'drain');
        else await new Promise((resolve) => setImmediate(resolve));
      }
    };
    await write(fresh.write(sample));
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      await write(fresh.write(next.value));
    }
    await write(fresh.end());
    parser.end();
  })().catch((error: unknown) => parser.destroy(error as Error));
  let row = 0;
  for await (const record of parser as AsyncIterable<{ record: string[]; info: { records: number } }>) {
    row = record.info.records;
    yield { row, cells: record.record };
  }
  await feed;
}
