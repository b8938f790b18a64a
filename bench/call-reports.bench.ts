import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { startServerProcess, signUpFirst } from './server-process.ts';
import { downloadCsv } from './download.ts';
import { fmt, sample, summarise, time } from './stats.ts';
import type { BenchResult } from './session-check.bench.ts';

const CALLS = 1_000_000;
const REPS = 100;
const WARMUP = 5;
const EXPORT_RUNS = 3;

/**
 * A user with 1,000,000 calls (one in three with a disposition and notes). Through the API of the server as
 * its own process (so its memory is its own): call_reports.csv of every call, with the server's memory before and at
 * its peak, against the same COPY straight from the database; and the Call Reports list's first page, a later page,
 * and a filter, against the same reads on the database.
 */
export async function benchCallReports(ownerUrl: string): Promise<BenchResult> {
  const server = await startServerProcess(ownerUrl);
  const owner = new pg.Pool({ connectionString: ownerUrl, max: 4 });
  try {
    const { cookie, userId } = await signUpFirst(server.base, 'reporter@example.com');
    const seedMs = await time(async () => {
      await owner.query(
        `insert into calls (user_id, request_id, provider, provider_call_id, from_number, to_number, status, notes,
           started_at, updated_at)
         select $1, lpad(to_hex(g), 8, '0'), 'simulator', 'SIMBENCH' || g, '+15550100000', '+1555' || (2000000 + g % 9000000),
           (array['completed', 'no-answer', 'busy'])[1 + g % 3], case when g % 3 = 0 then 'Bench note ' || g end,
           now() - make_interval(secs => g), now()
         from generate_series(1, ${CALLS}) g`,
        [userId],
      );
      await owner.query(
        `insert into call_dispositions (user_id, disposition, notes, call_id, called_at)
         select user_id, (array['answered', 'not-interested', 'qualified'])[1 + (abs(hashtext(id::text)) % 3)], notes, id, started_at
         from calls where user_id = $1 and notes is not null`,
        [userId],
      );
      await owner.query('vacuum analyze calls');
      await owner.query('vacuum analyze call_dispositions');
    });

    const rssBefore = server.rssMb();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, server.rssMb())), 100);
    let lines = 0;
    let encoding = 'none';
    const exportOnce = () =>
      time(async () => {
        const download = await downloadCsv(`${server.base}/api/call-reports/export`, cookie);
        lines = download.lines;
        encoding = download.encoding;
      });
    // Three downloads, the median reported (each is listed beside it).
    const exportRuns: number[] = [];
    for (let run = 0; run < EXPORT_RUNS; run++) exportRuns.push(await exportOnce());
    const exportMs = summarise(exportRuns).p50;
    clearInterval(sampler);
    const floorMs = await time(async () => {
      const client = await owner.connect();
      try {
        const stream = client.query(
          copyTo(`copy (select c.id::text, coalesce(c.contact_id::text, ''), coalesce(c.project_id::text, ''),
              csv_safe(coalesce(c.disposition, c.status)),
              csv_safe(coalesce(c.notes, '')), to_char(c.started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
            from calls c where c.user_id = '${userId}' order by c.started_at desc, c.id desc) to stdout with (format csv, force_quote *)`),
        );
        for await (const chunk of stream as AsyncIterable<Buffer>) void chunk;
      } finally {
        client.release();
      }
    });

    const get = async (url: string) => {
      const r = await fetch(`${server.base}${url}`, { headers: { cookie } });
      if (!r.ok) throw new Error(`${url}: ${r.status}`);
      return r.json() as Promise<{ next: string | null }>;
    };
    const firstPage = summarise(await sample(() => get('/api/call-reports'), REPS, WARMUP));
    const deep = (await get('/api/call-reports?limit=200')).next!;
    const laterPage = summarise(
      await sample(() => get(`/api/call-reports?after=${encodeURIComponent(deep)}`), REPS, WARMUP),
    );
    const filtered = summarise(await sample(() => get('/api/call-reports?search=qualified'), 20, 2));
    const pageFloor = summarise(
      await sample(
        () =>
          owner.query(
            `select c.id, c.contact_id, c.project_id, c.notes, c.started_at,
               coalesce(c.disposition, c.status)
             from calls c where c.user_id = $1 order by c.started_at desc, c.id desc limit 51`,
            [userId],
          ),
        REPS,
        WARMUP,
      ),
    );
    const row = (name: string, s: ReturnType<typeof summarise>, target: string) =>
      `| ${name} | ${fmt(s.p50)} | ${fmt(s.p95)} | ${target} |`;
    return {
      name: 'Call reports at a million calls',
      dataSize: `${CALLS.toLocaleString()} calls of one user, a third with a disposition and notes; seeded in ${(seedMs / 1000).toFixed(0)} s`,
      header: '| measure | p50 / value | p95 | target |',
      rows: [
        `| call_reports.csv of every call through the API (${(lines - 1).toLocaleString()} rows, ${encoding}-compressed; median of ${EXPORT_RUNS}: ${exportRuns.map((ms) => (ms / 1000).toFixed(1)).join(', ')} s) | ${(exportMs / 1000).toFixed(1)} s | | ≤ 10 s: ${exportMs <= 10_000 ? 'yes' : '**no**'} |`,
        `| floor: the same COPY straight from the database | ${(floorMs / 1000).toFixed(1)} s | | ratio ${(exportMs / floorMs).toFixed(2)}× |`,
        `| server RSS before → peak during the export (MB) | ${rssBefore.toFixed(0)} → ${rssPeak.toFixed(0)} | | growth ≤ 150 MB: ${rssPeak - rssBefore <= 150 ? 'yes' : '**no**'} |`,
        row(
          'GET /api/call-reports, first page (ms)',
          firstPage,
          `p95 ≤ 200 ms: ${firstPage.p95 <= 200 ? 'yes' : '**no**'}`,
        ),
        row(
          'a page 200 calls in (ms)',
          laterPage,
          `p95 ≤ 200 ms: ${laterPage.p95 <= 200 ? 'yes' : '**no**'}`,
        ),
        row(
          'floor: the first page straight on the database (ms)',
          pageFloor,
          `ratio p95 ${(firstPage.p95 / pageFloor.p95).toFixed(1)}×`,
        ),
        row(
          `a filter ("qualified", 20 runs) (ms)`,
          filtered,
          `p95 ≤ 200 ms: ${filtered.p95 <= 200 ? 'yes' : '**no** (a trigram index is the next step)'}`,
        ),
      ],
    };
  } finally {
    await owner.end();
    await server.stop();
  }
}
