import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import { to as copyTo, from as copyFrom } from 'pg-copy-streams';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import type { ImportEvent } from '../domain/contacts/contact-import.ts';
import { FIRST_NAMES, LAST_NAMES } from './names.ts';
import { startServerProcess, signUpFirst } from './server-process.ts';
import { downloadCsv } from './download.ts';
import { fmt, summarise } from './stats.ts';
import type { BenchResult } from './session-check.bench.ts';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 1_000_000);

/** A realistic CSV as another CRM would export it: header, quoted companies with commas, tags on one row in ten. */
export async function writeContactsCsv(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  out.write('First Name,Last Name,Email,Phone,Company,Title,Tags\n');
  for (let i = 1; i <= rows; i++) {
    const line = `${FIRST_NAMES[i % 10]},${LAST_NAMES[(i * 7) % 10]}${i % 97},lead${i}@company${i % 5000}.example,(${200 + (i % 700)}) 555-${String(i % 10000).padStart(4, '0')},"Company ${i % 20000}, Inc",${i % 3 === 0 ? 'Buyer' : ''},${i % 10 === 0 ? 'vip;q4' : ''}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** Imports a CSV written by writeContactsCsv through the API as the user of `cookie`; the import's report. */
export async function importCsv(
  base: string,
  cookie: string,
  csv: string,
): Promise<Extract<ImportEvent, { type: 'done' }>> {
  const mapping = ['firstName', 'lastName', 'email', 'phone', 'company', 'title', 'tags'];
  const query = new URLSearchParams({
    fileName: 'contacts.csv',
    header: 'true',
    duplicates: 'skip',
    mapping: JSON.stringify(mapping),
  });
  const response = await fetch(`${base}/api/contacts/imports?${query.toString()}`, {
    method: 'POST',
    headers: {
      cookie,
      origin: 'http://localhost:3000',
      'content-type': 'application/octet-stream',
      'content-length': String(statSync(csv).size),
    },
    body: Readable.toWeb(createReadStream(csv)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  const text = await response.text();
  const last = JSON.parse(text.trim().split('\n').at(-1) ?? '{}') as ImportEvent;
  if (last.type !== 'done') throw new Error(`import did not finish: ${text.slice(-500)}`);
  return last;
}

/**
 * A 1,000,000-row CSV imported through the API (the server as its own process, so its memory is its own),
 * until the last row is searchable in the list; the contact list measured for the same user while it runs; then
 * every contact exported through the API. Floors in the same run: the same rows loaded by one COPY + INSERT by the
 * owner, and the same export query by COPY straight from the database.
 */
export async function benchContactTransfer(ownerUrl: string): Promise<BenchResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'callcrm-bench-csv-'));
  const csv = path.join(dir, 'contacts.csv');
  const server = await startServerProcess(ownerUrl);
  const owner = new pg.Pool({ connectionString: ownerUrl, max: 4 });
  try {
    await writeContactsCsv(csv, ROWS);
    const size = statSync(csv).size;
    const { cookie, userId } = await signUpFirst(server.base, 'importer@example.com');
    const rssBefore = server.rssMb();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, server.rssMb())), 200);

    // The contact list while the import runs: page 1, every 250 ms, after a warm-up.
    for (let i = 0; i < 5; i++)
      await (await fetch(`${server.base}/api/contacts`, { headers: { cookie } })).text();
    let started = performance.now();
    const listTimes: number[] = [];
    const slowest: { at: number; ms: number }[] = [];
    let importing = true;
    const lister = (async () => {
      while (importing) {
        const start = performance.now();
        const r = await fetch(`${server.base}/api/contacts`, { headers: { cookie } });
        await r.text();
        const ms = performance.now() - start;
        listTimes.push(ms);
        if (ms > 200) slowest.push({ at: Math.round(start - started), ms: Math.round(ms) });
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();

    // When the last row of the file is first found by search, polled every 500 ms while the import runs.
    let searchableMs = Number.NaN;
    const searcher = (async () => {
      while (importing && Number.isNaN(searchableMs)) {
        const r = await fetch(`${server.base}/api/contacts?search=${encodeURIComponent(`lead${ROWS}@`)}`, {
          headers: { cookie },
        });
        const found = ((await r.json()) as { contacts: unknown[] }).contacts.length > 0;
        if (found) searchableMs = performance.now() - started;
        else await new Promise((resolve) => setTimeout(resolve, 500));
      }
    })();
    started = performance.now();
    const last = await importCsv(server.base, cookie, csv);
    const importMs = performance.now() - started;
    importing = false;
    await lister;
    await searcher;
    if (Number.isNaN(searchableMs)) searchableMs = importMs;
    clearInterval(sampler);
    const list = summarise(listTimes);
    if (slowest.length)
      console.error(
        'list requests over 200 ms during the import (start offset, ms):',
        JSON.stringify(slowest),
      );

    // Floor: the same rows straight into contacts by the owner: COPY into a temporary table, one INSERT, the queue.
    const floorUser = (
      await owner.query<{ id: string }>(
        `insert into auth_users (id, email) values (gen_random_uuid(), 'floor@example.com') returning id`,
      )
    ).rows[0]!.id;
    const floorStart = performance.now();
    const client = await owner.connect();
    try {
      await client.query('begin');
      await client.query(
        'create temp table incoming (first_name text, last_name text, email text, phone text, company text, title text, tags text) on commit drop',
      );
      await pipeline(
        createReadStream(csv),
        client.query(copyFrom('copy incoming from stdin with (format csv, header true)')) as Writable,
      );
      await client.query(
        `with ins as (insert into contacts (user_id, first_name, last_name, email, phone, phone_e164, company, title, tags)
           select $1, first_name, last_name, email, phone, '+1' || regexp_replace(phone, '\\D', '', 'g'), company, title,
             coalesce(string_to_array(nullif(tags, ''), ';'), '{}') from incoming returning id),
         q as (insert into power_dialer_queues (queue_id, queue_name, user_id) values ('default-all-contacts', 'All Synced Contacts', $1) returning id)
         insert into queue_members (queue_id, contact_id, user_id) select (select id from q), id, $1 from ins`,
        [floorUser],
      );
      await client.query('commit');
    } finally {
      client.release();
    }
    const floorImportMs = performance.now() - floorStart;

    // Export of everything the import created, through the API, and its floor.
    const exportRssBefore = server.rssMb();
    let exportPeak = exportRssBefore;
    const exportSampler = setInterval(() => (exportPeak = Math.max(exportPeak, server.rssMb())), 100);
    const exportStart = performance.now();
    const exported = await downloadCsv(`${server.base}/api/contacts/export`, cookie);
    const exportBytes = exported.bytes;
    const exportMs = performance.now() - exportStart;
    clearInterval(exportSampler);

    const floorExportStart = performance.now();
    const exportClient = await owner.connect();
    let floorBytes = 0;
    try {
      const stream = exportClient.query(
        copyTo(`copy (select csv_safe(coalesce(first_name, '')), csv_safe(coalesce(last_name, '')), csv_safe(coalesce(email, '')),
          csv_safe(coalesce(phone, '')), csv_safe(coalesce(company, '')), csv_safe(coalesce(title, '')),
          csv_safe(coalesce(replace(notes, ',', ';'), '')), status, csv_safe(coalesce(array_to_string(tags, ';'), '')),
          to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
          from contacts where user_id = '${userId}' order by created_at desc, id desc) to stdout with (format csv, force_quote *)`),
      );
      for await (const chunk of stream as AsyncIterable<Buffer>) floorBytes += chunk.length;
    } finally {
      exportClient.release();
    }
    const floorExportMs = performance.now() - floorExportStart;

    const report = last.report;
    return {
      name: `Contacts in and out at ${ROWS.toLocaleString()} rows`,
      dataSize: `a ${(size / 1024 ** 2).toFixed(0)} MB CSV of ${ROWS.toLocaleString()} contacts (7 columns, quoted companies, tags on 10%) into an account with none; the server as its own process`,
      header: '| measure | result | floor (same run) | ratio | target |',
      rows: [
        `| import: request to report, default queue included (s) | ${(importMs / 1000).toFixed(1)} | ${(floorImportMs / 1000).toFixed(1)} (COPY + one INSERT by the owner) | ${(importMs / floorImportMs).toFixed(2)}× | — |`,
        `| import: last row found by search (s) | ${(searchableMs / 1000).toFixed(1)} | — | — | ≤ 60 s: ${searchableMs <= 60_000 ? 'yes' : '**no**'} |`,
        `| import: server RSS before → peak (MB) | ${rssBefore.toFixed(0)} → ${rssPeak.toFixed(0)} | — | — | < 500 MB: ${rssPeak < 500 ? 'yes' : '**no**'} |`,
        `| contact list during the import, p50 / p95 / max (ms, ${listTimes.length} requests) | ${fmt(list.p50)} / ${fmt(list.p95)} / ${fmt(Math.max(...listTimes))} | — | — | p95 < 200 ms: ${list.p95 < 200 ? 'yes' : '**no**'} |`,
        `| import report | created ${report.created.toLocaleString()}, skipped ${report.skipped} | — | — | — |`,
        `| export of ${report.created.toLocaleString()} contacts (s) | ${(exportMs / 1000).toFixed(1)} (${(exportBytes / 1024 ** 2).toFixed(0)} MB, ${exported.encoding}-compressed) | ${(floorExportMs / 1000).toFixed(1)} (${(floorBytes / 1024 ** 2).toFixed(0)} MB, COPY by the owner) | ${(exportMs / floorExportMs).toFixed(2)}× | ≤ 10 s: ${exportMs <= 10_000 ? 'yes' : '**no**'} |`,
        `| export: server RSS growth (MB) | ${(exportPeak - exportRssBefore).toFixed(0)} (${exportRssBefore.toFixed(0)} → ${exportPeak.toFixed(0)}) | — | — | < 150 MB: ${exportPeak - exportRssBefore < 150 ? 'yes' : '**no**'} |`,
      ],
    };
  } finally {
    await owner.end();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
