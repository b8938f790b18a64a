import os from 'node:os';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { signUpFirst, startServerProcess } from './server-process.ts';
import { fmt, summarise, time } from './stats.ts';
import { countPhaseCpu, cpuLine, postmasterPid } from './cpu.ts';
import { postgresLine, postgresStatements, samplePostgres } from './postgres-waits.ts';
import type { BenchResult } from './session-check.bench.ts';

const RATE = Number(process.env.BENCH_EVENTS_PER_SECOND ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const ENDPOINTS = 10;
/**
 * jobsApart (BENCH_JOBS_INSTANCE=1, or `npm run bench webhook-fanout-jobs-apart`): the server answering the API runs
 * no background jobs (BACKGROUND_JOBS=off) and a second server process on the same database, on the same machine,
 * delivers the webhooks (decision 046).
 */
export const fanoutSetup = { jobsApart: process.env.BENCH_JOBS_INSTANCE === '1' };
const CONTACTS = 100_000;

/** The endpoints' server: notes each delivery's delay from its event, a repeat (same webhook-id) once. */
const RECEIVER = `
const http = require('node:http');
const { parentPort } = require('node:worker_threads');
const ids = new Set();
const arrivals = [];
let received = 0;
const server = http.createServer((request, response) => {
  let body = '';
  request.on('data', (c) => (body += c));
  request.on('end', () => {
    received++;
    const id = request.headers['webhook-id'];
    if (id && !ids.has(id)) {
      ids.add(id);
      arrivals.push(Date.now() - Date.parse(JSON.parse(body).timestamp));
    }
    response.writeHead(204).end();
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage('http://127.0.0.1:' + server.address().port + '/hook'));
parentPort.on('message', () => parentPort.postMessage({ arrivals, distinct: ids.size, received }));
`;

type Phase = {
  create: number[];
  list: number[];
  errors: number;
  cpu: string;
  postgres: string;
  /** Jobs queued a second (delivery runs, in this benchmark). */
  jobsPerSecond: number;
};

/**
 * Webhook fan-out (decision 035): contacts created through the API at RATE a second for SECONDS, each a
 * `contact.created` event for ENDPOINTS endpoints (every event to every endpoint: RATE × ENDPOINTS deliveries a
 * second), received by a local server; while a reader lists contacts every 100 ms. Measured: the seconds from the
 * event (its committed timestamp) to its arrival at each endpoint, and the API's latency with the endpoints against
 * the same load without them. The server runs as its own process, as the README runs it. Floors of the same run: a
 * contact insert straight on PostgreSQL, and one POST to the receiver. Targets: event-to-delivery p95 ≤ 2 s; the
 * API p95 unchanged.
 */
export async function benchWebhookFanout(ownerUrl: string): Promise<BenchResult> {
  const JOBS_APART = fanoutSetup.jobsApart;
  // The receiver runs on a thread of its own, so its work does not delay the API client's timings (it still shares
  // the machine's two cores with the server and PostgreSQL).
  const receiver = new Worker(RECEIVER, { eval: true });
  const hookUrl = await new Promise<string>((resolve) => receiver.once('message', resolve));
  const receiverState = () =>
    new Promise<{ arrivals: number[]; distinct: number; received: number }>((resolve) => {
      receiver.once('message', resolve);
      receiver.postMessage('state');
    });
  // Instances on one database share the key that seals the endpoints' signing secrets (README).
  const env = {
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
  };
  const server = await startServerProcess(ownerUrl, {
    ...env,
    ...(JOBS_APART && { BACKGROUND_JOBS: 'off' }),
  });
  // Started after the first, which applies the migrations.
  const jobs = JOBS_APART ? await startServerProcess(ownerUrl, env) : null;
  if (jobs && process.env.BENCH_JOBS_NICE) os.setPriority(jobs.pid, Number(process.env.BENCH_JOBS_NICE));
  const serverPids = [server.pid, ...(jobs ? [jobs.pid] : [])];
  const owner = new pg.Pool({ connectionString: ownerUrl, max: 4 });
  try {
    const { cookie, userId } = await signUpFirst(server.base, 'fanout@example.com');
    await owner.query(
      `insert into contacts (user_id, first_name, last_name, email)
       select $1, 'Seed' || g, 'Bench', 'seed' || g || '@example.com' from generate_series(1, ${CONTACTS}) g`,
      [userId],
    );
    await owner.query('vacuum analyze contacts');
    const headers = { cookie, origin: 'http://localhost:3000', 'content-type': 'application/json' };
    let serial = 0;
    const createOne = async (phase: Phase) => {
      const n = serial++;
      phase.create.push(
        await time(async () => {
          const r = await fetch(`${server.base}/api/contacts`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ firstName: `Fan${n}`, lastName: 'Out', email: `fan${n}@example.com` }),
          });
          await r.text();
          if (r.status !== 201) phase.errors++;
        }),
      );
    };
    const listOnce = async (phase: Phase) => {
      phase.list.push(
        await time(async () => {
          const r = await fetch(`${server.base}/api/contacts?limit=50`, { headers: { cookie } });
          await r.text();
          if (r.status !== 200) phase.errors++;
        }),
      );
    };
    /** RATE creations a second, open loop (each fired on time whatever the others do), and a list every 100 ms. */
    const postmaster = await postmasterPid(owner);
    /** Jobs ever added to the queue (its table's inserts, as PostgreSQL counts them). */
    const jobsAdded = async () => {
      const { rows } = await owner.query<{ n: string }>(
        `select coalesce(sum(n_tup_ins), 0) as n from pg_stat_user_tables where schemaname = 'graphile_worker' and relname = '_private_jobs'`,
      );
      return Number(rows[0]!.n);
    };
    const load = async (): Promise<Phase> => {
      const phase: Phase = { create: [], list: [], errors: 0, cpu: '', postgres: '', jobsPerSecond: 0 };
      const cpu = countPhaseCpu(serverPids, postmaster);
      const jobsBefore = await jobsAdded();
      const phaseStart = Date.now();
      const postgres = await samplePostgres(owner);
      const running: Promise<void>[] = [];
      const start = Date.now();
      for (let i = 0; i < RATE * SECONDS; i++) {
        const due = start + (i * 1000) / RATE;
        const wait = due - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        running.push(createOne(phase));
        if (i % Math.max(1, Math.round(RATE / 10)) === 0) running.push(listOnce(phase));
      }
      await Promise.all(running);
      phase.cpu = cpuLine(cpu.finish());
      phase.jobsPerSecond = ((await jobsAdded()) - jobsBefore) / ((Date.now() - phaseStart) / 1000);
      const figures = await postgres.finish();
      phase.postgres = postgresLine(figures);
      console.error(
        `${phase.jobsPerSecond.toFixed(1)} jobs/s; ${phase.cpu}\nPostgreSQL: ${phase.postgres}\n${postgresStatements(figures, 8)}`,
      );
      return phase;
    };

    const quiet = await load();
    for (let e = 0; e < ENDPOINTS; e++) {
      const r = await fetch(`${server.base}/api/webhooks`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          url: `${hookUrl}?endpoint=${e}`,
          description: `Bench ${e}`,
          events: ['contact.created'],
        }),
      });
      if (r.status !== 201) throw new Error(`endpoint: ${r.status} ${await r.text()}`);
    }
    const loadStart = Date.now();
    const sampler =
      process.env.BENCH_DEBUG &&
      setInterval(() => {
        void owner
          .query(
            `select state, wait_event_type, wait_event, left(query, 60) as q, count(*)::int as n
             from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()
             group by 1, 2, 3, 4 order by n desc limit 8`,
          )
          .then((r) => console.error(JSON.stringify(r.rows)));
      }, 3000);
    const busy = await load();
    if (sampler) clearInterval(sampler);
    const expected = RATE * SECONDS * ENDPOINTS;
    const deadline = Date.now() + 300_000;
    let lastLog = 0;
    let state = await receiverState();
    while (state.distinct < expected && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      state = await receiverState();
      if (process.env.BENCH_DEBUG && Date.now() - lastLog > 5000) {
        lastLog = Date.now();
        const { rows } = await owner.query(
          `select status, count(*)::int as n from webhook_deliveries group by status order by status`,
        );
        const jobs = await owner.query(
          `select task_identifier, count(*)::int as n, count(locked_at)::int as locked, min(run_at) as first
           from graphile_worker.jobs group by 1`,
        );
        console.error(state.distinct, JSON.stringify(rows), JSON.stringify(jobs.rows));
      }
    }
    const drainedAfter = (Date.now() - loadStart) / 1000 - SECONDS;

    // Floors: one contact insert straight on PostgreSQL (the endpoints gone, so it makes no event); one POST to the
    // receiver.
    await owner.query('delete from webhook_endpoints');
    // The same load again with no endpoint, on the tables as the deliveries left them: a drift between the phases
    // (tables grown, vacuums) shows as a change between the two no-endpoint phases.
    const after = await load();
    const client = await owner.connect();
    const insertFloor: number[] = [];
    try {
      for (let i = 0; i < 500; i++)
        insertFloor.push(
          await time(() =>
            client.query(
              `insert into contacts (user_id, first_name, last_name, email) values ($1, 'Floor', 'F', 'floor' || $2 || '@example.com')`,
              [userId, i],
            ),
          ),
        );
    } finally {
      client.release();
    }
    const repeats = state.received - state.distinct;
    const postFloor: number[] = [];
    for (let i = 0; i < 500; i++)
      postFloor.push(
        await time(async () => {
          const r = await fetch(hookUrl, {
            method: 'POST',
            body: JSON.stringify({ timestamp: new Date().toISOString() }),
          });
          await r.text();
        }),
      );

    const delivery = summarise(state.arrivals);
    const qc = summarise(quiet.create);
    const qlist = summarise(quiet.list);
    const ac = summarise(after.create);
    const alist = summarise(after.list);
    const bc = summarise(busy.create);
    const blist = summarise(busy.list);
    const fi = summarise(insertFloor);
    const fp = summarise(postFloor);
    const met = state.distinct === expected && delivery.p95 <= 2000;
    // Unchanged: within 20 % (the run-to-run spread of these figures on this machine).
    // Against the no-endpoint phases before and after it, on average.
    const baseline = { create: (qc.p95 + ac.p95) / 2, list: (qlist.p95 + alist.p95) / 2 };
    const apiHeld = bc.p95 <= baseline.create * 1.2 && blist.p95 <= baseline.list * 1.2;
    return {
      name: `Webhook fan-out: events to ten endpoints under load${JOBS_APART ? ', deliveries in a process of their own' : ''}`,
      dataSize:
        `${CONTACTS.toLocaleString('en-US')} contacts; ${RATE} contacts created a second through the API for ${SECONDS} s ` +
        `(open loop) and a contact list read every 100 ms, first with no endpoint, then with ${ENDPOINTS} endpoints ` +
        `subscribed to contact.created (${expected.toLocaleString('en-US')} deliveries, ${RATE * ENDPOINTS}/s), then with none again; ` +
        `${JOBS_APART ? 'the server answering the API a process of its own running no background jobs, and a second server process delivering (BACKGROUND_JOBS)' : 'server as its own process'}. ` +
        `Received ${state.distinct.toLocaleString('en-US')} of ${expected.toLocaleString('en-US')} (${repeats.toLocaleString('en-US')} repeats); the last ${fmt(Math.max(0, drainedAfter))} s after the load ended; ` +
        `errors ${quiet.errors} / ${busy.errors}. Target event-to-delivery p95 ≤ 2 s: ${met ? 'met' : 'NOT met'}. ` +
        `API p95 unchanged (within 20 % of the mean of the no-endpoint phases before and after): ${apiHeld ? 'met' : 'NOT met'} (POST ${fmt(baseline.create)} → ${fmt(bc.p95)} ms, GET ${fmt(baseline.list)} → ${fmt(blist.p95)} ms; ` +
        `the deliveries' HTTP, signing and database work share the machine's two cores with the API, PostgreSQL, the receiver and the client). ` +
        `No endpoint: ${quiet.cpu}; PostgreSQL ${quiet.postgres}. No endpoint, after: ${after.cpu}. Delivering: ${busy.jobsPerSecond.toFixed(0)} delivery runs a second; ${busy.cpu}; PostgreSQL ${busy.postgres}`,
      header: '| measure | p50 | p95 | p99 |',
      rows: [
        `| event → delivery at an endpoint (ms) | ${fmt(delivery.p50)} | ${fmt(delivery.p95)} | ${fmt(delivery.p99)} |`,
        `| POST /api/contacts, no endpoint | ${fmt(qc.p50)} | ${fmt(qc.p95)} | ${fmt(qc.p99)} |`,
        `| POST /api/contacts, ${ENDPOINTS} endpoints delivering | ${fmt(bc.p50)} | ${fmt(bc.p95)} | ${fmt(bc.p99)} |`,
        `| POST /api/contacts, no endpoint, after | ${fmt(ac.p50)} | ${fmt(ac.p95)} | ${fmt(ac.p99)} |`,
        `| GET /api/contacts?limit=50, no endpoint | ${fmt(qlist.p50)} | ${fmt(qlist.p95)} | ${fmt(qlist.p99)} |`,
        `| GET /api/contacts?limit=50, ${ENDPOINTS} endpoints delivering | ${fmt(blist.p50)} | ${fmt(blist.p95)} | ${fmt(blist.p99)} |`,
        `| GET /api/contacts?limit=50, no endpoint, after | ${fmt(alist.p50)} | ${fmt(alist.p95)} | ${fmt(alist.p99)} |`,
        `| raw SQL floor: one contact insert | ${fmt(fi.p50)} | ${fmt(fi.p95)} | ${fmt(fi.p99)} |`,
        `| floor: one POST to the receiver | ${fmt(fp.p50)} | ${fmt(fp.p95)} | ${fmt(fp.p99)} |`,
        `| ratio POST /api/contacts (${ENDPOINTS} endpoints) / insert floor | ${(bc.p50 / fi.p50).toFixed(1)}× | ${(bc.p95 / fi.p95).toFixed(1)}× | ${(bc.p99 / fi.p99).toFixed(1)}× |`,
      ],
    };
  } finally {
    await owner.end();
    await server.stop();
    await jobs?.stop();
    await receiver.terminate();
  }
}
