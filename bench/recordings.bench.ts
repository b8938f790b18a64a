import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { simulatedVoiceWav } from '../server/telephony/simulated-voice.ts';
import { withActor } from '../server/db/database.ts';
import {
  deleteDueFiles,
  deleteExpired,
  insertRecording,
  storeRecordingFile,
} from '../server/modules/recordings/public.ts';
import { signUpBenchUser, startBenchServer } from './bench-server.ts';
import type { BenchResult } from './session-check.bench.ts';
import { fmt, summarise } from './stats.ts';

const MINUTES = 60;
const READS = 40;
const WARMUP = 5;
const FIRST_BYTES = 64 * 1024;
const RECORDINGS = 100_000;
const USERS = 100;
const TARGET_MS = 200;

/** Milliseconds until the first FIRST_BYTES of a response body have arrived (then the rest is abandoned). */
async function firstBytes(
  open: () => Promise<ReadableStream<Uint8Array> | NodeJS.ReadableStream>,
): Promise<number> {
  const start = process.hrtime.bigint();
  const body = await open();
  let received = 0;
  if ('getReader' in body) {
    const reader = body.getReader();
    while (received < FIRST_BYTES) {
      const { value, done } = await reader.read();
      if (done) break;
      received += value.length;
    }
    await reader.cancel();
  } else {
    for await (const chunk of body) {
      received += (chunk as Buffer).length;
      if (received >= FIRST_BYTES) break;
    }
  }
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * Recordings (decisions 029, 030). (1) A 60-minute call recording streamed to its owner from the start and from a
 * seek to its middle (an HTTP range request, as the browser's <audio> sends), to the first 64 KB, against reading the
 * same bytes straight from the file. (2) The nightly retention job over 100,000 recordings of 100 users, half past
 * their retention: rows deleted, then their files, against the floor of one raw DELETE of the same rows.
 */
export async function benchRecordings(ownerUrl: string): Promise<BenchResult> {
  const filesDir = path.resolve(`data/bench-recordings-${process.pid}`);
  const { app, base } = await startBenchServer(ownerUrl, { trustProxy: 1, filesDir });
  const owner = new pg.Pool({ connectionString: ownerUrl, max: 4 });
  try {
    const { cookie, userId } = await signUpBenchUser(base, 'recordings@example.com', '10.9.0.1');
    await owner.query(`update user_profiles set role = 'user' where id = $1 and role = 'pending'`, [userId]);

    // (1) One hour of phone-quality WAV (8 kHz, 16-bit), stored through the product.
    const { rows: calls } = await owner.query<{ id: string }>(
      `insert into calls (user_id, request_id, provider, from_number, to_number, status, started_at, recorded)
       values ($1, 'benchrec', 'simulator', '+15550100000', '+13035550199', 'completed', now(), true) returning id`,
      [userId],
    );
    const wav = simulatedVoiceWav(MINUTES * 60);
    const recordingId = await storeRecordingFile(
      app.ctx,
      { userId, folder: 'call', extension: 'wav', contentType: 'audio/wav' },
      wav,
      (trx, stored) =>
        insertRecording(trx, {
          userId,
          kind: 'call',
          callId: calls[0]!.id,
          contactId: null,
          storageKey: stored.key,
          contentType: 'audio/wav',
          sizeBytes: stored.size,
          durationSeconds: MINUTES * 60,
          providerRecordingId: null,
          createdAt: new Date(),
        }),
    );
    const { rows: stored } = await owner.query<{ storage_key: string }>(
      'select storage_key from recordings where id = $1',
      [recordingId],
    );
    const file = path.join(filesDir, ...stored[0]!.storage_key.split('/'));
    const middle = Math.floor(wav.length / 2);
    const url = `${base}/api/recordings/${recordingId}/audio`;
    const fromStart: number[] = [];
    const fromSeek: number[] = [];
    const floorStart: number[] = [];
    const floorSeek: number[] = [];
    for (let i = 0; i < READS + WARMUP; i++) {
      const a = await firstBytes(async () => (await fetch(url, { headers: { cookie } })).body!);
      const b = await firstBytes(
        async () => (await fetch(url, { headers: { cookie, range: `bytes=${middle}-` } })).body!,
      );
      const c = await firstBytes(() => Promise.resolve(createReadStream(file)));
      const d = await firstBytes(() => Promise.resolve(createReadStream(file, { start: middle })));
      if (i >= WARMUP) {
        fromStart.push(a);
        fromSeek.push(b);
        floorStart.push(c);
        floorSeek.push(d);
      }
    }
    const seekAnswer = await fetch(url, { headers: { cookie, range: `bytes=${middle}-${middle + 9}` } });
    if (seekAnswer.status !== 206 || (await seekAnswer.arrayBuffer()).byteLength !== 10)
      throw new Error(`a seek did not answer 206 with its bytes: ${seekAnswer.status}`);

    // (2) 100,000 recordings of 100 users, each a small file, half older than the 90-day default.
    const userIds = [userId];
    for (let u = 1; u < USERS; u++)
      userIds.push((await signUpBenchUser(base, `retention-${u}@example.com`, `10.9.1.${u}`)).userId);
    const small = Buffer.alloc(2048, 1);
    const seeded = Array.from({ length: RECORDINGS }, (_, i) => ({
      user: userIds[i % USERS]!,
      call: randomUUID(),
      key: `users/${userIds[i % USERS]}/call/${randomUUID()}.wav`,
      old: i % 2 === 0,
    }));
    for (const r of seeded) {
      await mkdir(path.dirname(path.join(filesDir, r.key)), { recursive: true });
      await writeFile(path.join(filesDir, r.key), small);
    }
    const keys = seeded.map((r) => r.key);
    /** Each recording with its call, made `days` ago. */
    const seed = async (rows: typeof seeded) => {
      for (let i = 0; i < rows.length; i += 10_000) {
        const batch = rows.slice(i, i + 10_000);
        const columns = [
          batch.map((r) => r.call),
          batch.map((r) => r.user),
          batch.map((r) => r.key),
          batch.map((r) => r.old),
        ];
        await owner.query(
          `insert into calls (id, user_id, request_id, provider, from_number, to_number, status, started_at, recorded)
           select c, u, substr(md5(c::text), 1, 8), 'simulator', '+15550100000', '+13035550199', 'completed', now(), true
           from unnest($1::uuid[], $2::uuid[]) as t(c, u)`,
          columns.slice(0, 2),
        );
        await owner.query(
          `insert into recordings (user_id, kind, call_id, storage_key, content_type, size_bytes, duration_seconds,
             created_at)
           select u, 'call', c, k, 'audio/wav', 2048, 60, now() - make_interval(days => case when o then 120 else 10 end)
           from unnest($1::uuid[], $2::uuid[], $3::text[], $4::bool[]) as t(c, u, k, o)`,
          columns,
        );
      }
      await owner.query('analyze recordings');
    };
    await seed(seeded);
    const disk = (await Promise.all(keys.slice(0, 100).map((k) => stat(path.join(filesDir, k))))).reduce(
      (n, s) => n + s.size,
      0,
    );

    const rowsStart = process.hrtime.bigint();
    const expired = await deleteExpired({ db: app.ctx.db, clock: () => new Date() });
    const rowsMs = Number(process.hrtime.bigint() - rowsStart) / 1e6;
    // The files follow through the deletion queue, which the server's job runner empties in the background.
    const filesStart = process.hrtime.bigint();
    await deleteDueFiles(app.ctx);
    for (;;) {
      const { rows } = await owner.query<{ n: string }>('select count(*) as n from file_deletions');
      if (Number(rows[0]!.n) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const filesMs = Number(process.hrtime.bigint() - filesStart) / 1e6;
    const expiredFiles = seeded.filter((r) => r.old).map((r) => path.join(filesDir, r.key));
    const filesDeleted = (
      await Promise.all(
        expiredFiles.map((f) =>
          stat(f).then(
            () => 0,
            () => 1,
          ),
        ),
      )
    ).reduce((n: number, gone) => n + gone, 0);
    const left = await withActor(app.ctx.db, { kind: 'system' }, async (trx) =>
      Number(
        (
          await trx
            .selectFrom('recordings')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('kind', '=', 'call')
            .executeTakeFirstOrThrow()
        ).n,
      ),
    );

    // The floor: the same expired rows again, deleted by one raw statement (the deletion trigger firing as well).
    await seed(seeded.filter((r) => r.old).map((r) => ({ ...r, call: randomUUID(), key: `${r.key}.floor` })));
    const floorStartAt = process.hrtime.bigint();
    const floorDeleted = await owner.query(
      `delete from recordings where kind <> 'greeting' and created_at < now() - interval '90 days'`,
    );
    const floorMs = Number(process.hrtime.bigint() - floorStartAt) / 1e6;

    const s = summarise(fromStart);
    const k = summarise(fromSeek);
    const fs0 = summarise(floorStart);
    const fk = summarise(floorSeek);
    const mb = (wav.length / 1024 / 1024).toFixed(1);
    return {
      name: `Recordings: a ${MINUTES}-minute recording streamed and seeked; retention over ${RECORDINGS.toLocaleString('en-US')}`,
      dataSize: `one ${MINUTES}-minute call recording (8 kHz 16-bit WAV, ${mb} MB, ${(wav.length / MINUTES / 1024).toFixed(0)} KB a minute), read ${READS} times from the start and from its middle after ${WARMUP} warm-up, to the first 64 KB; ${RECORDINGS.toLocaleString('en-US')} recordings of ${USERS} users (2 KB files, ${(disk / 100).toFixed(0)} bytes each on disk), half older than the 90-day retention`,
      header: '| measure | p50 | p95 | p99 |',
      rows: [
        `| GET /api/recordings/:id/audio, first 64 KB from the start (ms) | ${fmt(s.p50)} | ${fmt(s.p95)} | ${fmt(s.p99)} |`,
        `| the same with Range from the middle: 206 (ms) | ${fmt(k.p50)} | ${fmt(k.p95)} | ${fmt(k.p99)} |`,
        `| floor: the file read straight from disk, start / middle (ms) | ${fmt(fs0.p50)} / ${fmt(fk.p50)} | ${fmt(fs0.p95)} / ${fmt(fk.p95)} | ${fmt(fs0.p99)} / ${fmt(fk.p99)} |`,
        `| ratio stream / floor, start / middle | ${(s.p50 / fs0.p50).toFixed(1)}× / ${(k.p50 / fk.p50).toFixed(1)}× | ${(s.p95 / fs0.p95).toFixed(1)}× / ${(k.p95 / fk.p95).toFixed(1)}× | |`,
        '',
        `| retention job over ${RECORDINGS.toLocaleString('en-US')} recordings | time | count |`,
        '| --- | --- | --- |',
        `| rows past retention deleted (batches of 5,000) | ${(rowsMs / 1000).toFixed(2)} s | ${expired} |`,
        `| their files deleted (the deletion queue, after the rows) | ${(filesMs / 1000).toFixed(2)} s | ${filesDeleted} |`,
        `| floor: one raw DELETE of the same ${floorDeleted.rowCount} rows | ${(floorMs / 1000).toFixed(2)} s | ratio rows ${(rowsMs / floorMs).toFixed(1)}× |`,
        `| recordings left (within retention) | | ${left} |`,
        '',
        `Target: streaming from the start and from a seek within ${TARGET_MS} ms (p95): ${s.p95 <= TARGET_MS && k.p95 <= TARGET_MS ? 'met' : 'NOT met'} (${fmt(s.p95)} / ${fmt(k.p95)} ms).`,
      ],
    };
  } finally {
    await owner.end();
    await app.close();
    await rm(filesDir, { recursive: true, force: true });
  }
}
