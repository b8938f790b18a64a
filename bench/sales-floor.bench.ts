import pg from 'pg';
import { newRequestId } from '../domain/calls/call-guard.ts';
import type { ParallelState } from '../domain/dialer/parallel-dialing.schema.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import type { SlowRequestReport } from '../server/process/slow-request-trace.ts';
import { signUpBenchUser } from './bench-server.ts';
import { openEventStream } from './event-stream.ts';
import { meetsRepTargets } from './rep-targets.ts';
import { fmt, summarise } from './stats.ts';
import { seedFloor } from './floor-seed.ts';
import { cpuSeconds, machineTimes, postgresCpuSeconds, postmasterPid, pressureTotals } from './cpu.ts';
import { startStallProbe, stallProbeLine, type StallFigures } from './stall-probe.ts';
import { postgresLine, samplePostgres, type PostgresFigures } from './postgres-waits.ts';
import {
  backgroundRows,
  backgroundSummary,
  prepareBackground,
  startBackground,
  type BackgroundFigures,
} from './floor-background.ts';
import type { BenchResult } from './session-check.bench.ts';

/*
 * A sales floor on one server (issue "capacity"): REPS reps, each a real account with CONTACTS_PER_REP contacts in
 * their own queue, signed in, an event stream open, running what their browser runs through the real server (a
 * process of its own, as in production) and the simulator: the walk, a call, hang up on a machine, the disposition,
 * a wrap-up, the next; a quarter of them in Parallel mode (a round, the live call, its disposition); each begins
 * within the first simulated minute. Time is scaled: SCALE real seconds a simulated second, so a rep places a call
 * every 60–120 simulated seconds. Five of them also refresh their reports every 10 s, five others their contact
 * list; campaigns send and an import runs beside them (floor-background.ts). First one rep alone (the floor of the
 * same run), then all of them. Reported: per endpoint p50/p95/p99 and errors, the delay of an event to its rep's
 * open stream, server memory (and per open stream), PostgreSQL connections, CPU.
 */
const REPS = Number(process.env.BENCH_REPS ?? 200);
const CONTACTS_PER_REP = Number(process.env.BENCH_CONTACTS_PER_REP ?? 100_000);
const MINUTES = Number(process.env.BENCH_MINUTES ?? 3);
/** 1 is real pace (a rep's call every 60–120 s); below 1 runs faster than life, which is that much more load. */
export const SCALE = Number(process.env.BENCH_TIME_SCALE ?? 1);
const POOL_SIZE = Number(process.env.BENCH_POOL_SIZE ?? 20);
const SOLO_SECONDS = Number(process.env.BENCH_SOLO_SECONDS ?? 60);
/** Server instances on the one database, each rep on one of them (as a load balancer spreads them). */
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 1);
/**
 * jobsApart (BENCH_JOBS_INSTANCE=1, or `npm run bench floor-knee-jobs-apart`): the INSTANCES answering the reps run no
 * background jobs (BACKGROUND_JOBS=off), and one more process, which no rep reaches, runs them all: the campaigns'
 * sends (decision 046). The import still runs where it was uploaded, on an instance answering users.
 */
export const floorSetup = { jobsApart: process.env.BENCH_JOBS_INSTANCE === '1' };
/** BENCH_SERVER_LOG=info has the servers log each request, and prints their own timing beside the reps'. */
const SERVER_LOG = process.env.BENCH_SERVER_LOG ?? 'warn';
/** BENCH_BACKGROUND=0 leaves out the campaigns and the import that run beside the reps. */
export const BACKGROUND = process.env.BENCH_BACKGROUND !== '0';
const REPORT_READERS = 5;
const REPORT_EVERY_MS = 10_000;
const FINISHED = ['completed', 'busy', 'no-answer', 'failed', 'canceled'];

export type Rep = {
  base: string;
  cookie: string;
  userId: string;
  queueId: string;
  mode: 'power' | 'parallel';
};

/** Every request the reps make, by endpoint (method and route, ids replaced). */
class Recorder {
  readonly latencies = new Map<string, number[]>();
  /**
   * Every request of a rep's own flow (not reports): its endpoint, when it started, how long it took, and whether it
   * was the rep's first of its kind (the first call of the day, the first look at a queue).
   */
  readonly timeline: { key: string; at: number; ms: number; first: boolean }[] = [];
  private readonly seen = new Set<string>();
  readonly errors = new Map<string, string[]>();
  readonly eventDelays: number[] = [];
  readonly slow: string[] = [];
  readonly phaseStart = performance.now();

  async call(rep: Rep, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
    const key = `${method} ${path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, ':id').replace(/\?.*$/, '')}`;
    const started = performance.now();
    let status = 0;
    let text = '';
    try {
      const response = await fetch(`${rep.base}${path}`, {
        method,
        headers: { 'content-type': 'application/json', origin: 'http://localhost:3000', cookie: rep.cookie },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      text = String(error);
    }
    const ms = performance.now() - started;
    if (ms > 1000)
      this.slow.push(
        `${((started - this.phaseStart) / 1000).toFixed(1)}s ${key} ${ms.toFixed(0)}ms ${rep.userId.slice(0, 8)}`,
      );
    if (!this.latencies.has(key)) this.latencies.set(key, []);
    this.latencies.get(key)!.push(ms);
    if (!key.includes('reports')) {
      const first = !this.seen.has(`${rep.userId} ${key}`);
      this.seen.add(`${rep.userId} ${key}`);
      this.timeline.push({ key, at: started, ms, first });
    }
    if (status < 200 || status >= 300) {
      if (!this.errors.has(key)) this.errors.set(key, []);
      this.errors.get(key)!.push(`${status} ${text.slice(0, 200)}`);
      throw new Error(`${key}: ${status} ${text.slice(0, 200)}`);
    }
    return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
  }
}

/**
 * The rep's open event stream: wakes the rep on a change to their calls, and times a call's first change from the
 * moment its POST answered. A change that arrives before that answer (the stream beat the response) counts as 0.
 */
function openStream(rep: Rep, recorder: Recorder) {
  const awaited = new Map<string, number>();
  const early = new Set<string>();
  const stream = openEventStream(rep.base, rep.cookie, {
    onChange: (change) => {
      if (change.topic !== 'calls' || !change.id) return;
      const since = awaited.get(change.id);
      if (since === undefined) {
        early.add(change.id);
        // Changes of calls long answered pile up here: keep the latest only (a Set iterates oldest first).
        if (early.size > 1000) early.delete(early.values().next().value!);
        return;
      }
      recorder.eventDelays.push(Math.max(0, performance.now() - since));
      awaited.delete(change.id);
    },
  });
  return {
    ...stream,
    /** From now, time until the stream carries this call's first change (0 if it already has). */
    expect: (callId: string, since: number) => {
      if (early.delete(callId)) recorder.eventDelays.push(0);
      else awaited.set(callId, since);
    },
  };
}

type Stream = ReturnType<typeof openStream>;
const simulated = (seconds: number) => new Promise((r) => setTimeout(r, seconds * 1000 * SCALE));
const between = (low: number, high: number) => low + Math.random() * (high - low);

/** A Power rep: the walk, a call, hang up on a machine, the disposition, a wrap-up; until `until`. */
async function powerRep(rep: Rep, stream: Stream, recorder: Recorder, until: number): Promise<void> {
  const walker = crypto.randomUUID();
  while (Date.now() < until) {
    const step = (await recorder.call(rep, 'POST', `/api/queues/${rep.queueId}/walk`, { walker })) as {
      contact: { id: string } | null;
    };
    if (!step.contact) return;
    const placed = (await recorder.call(rep, 'POST', '/api/calls', {
      requestId: newRequestId(),
      contactId: step.contact.id,
      queueId: rep.queueId,
    })) as { call: { id: string } };
    stream.expect(placed.call.id, performance.now());
    let call: { status: string; answeredBy: string | null };
    let hungUp = false;
    for (;;) {
      call = ((await recorder.call(rep, 'GET', `/api/calls/${placed.call.id}`)) as { call: typeof call })
        .call;
      if (FINISHED.includes(call.status)) break;
      if (call.answeredBy === 'machine' && !hungUp) {
        hungUp = true;
        await recorder.call(rep, 'POST', `/api/calls/${placed.call.id}/hangup`, {});
      }
      await stream.next(5_000);
    }
    await recorder.call(rep, 'POST', '/api/dispositions', {
      callId: placed.call.id,
      contactId: step.contact.id,
      queueId: rep.queueId,
      disposition:
        call.answeredBy === 'human' ? 'answered' : call.answeredBy === 'machine' ? 'voicemail' : 'no-answer',
    });
    await simulated(between(20, 80));
  }
}

/** A Parallel rep: a round, the live call to its end, its disposition, a wrap-up; until `until`. */
async function parallelRep(rep: Rep, stream: Stream, recorder: Recorder, until: number): Promise<void> {
  const walker = crypto.randomUUID();
  const stateUrl = `/api/queues/${rep.queueId}/parallel?walker=${walker}`;
  let last: string | null = null;
  while (Date.now() < until) {
    let state = (await recorder.call(rep, 'POST', `/api/queues/${rep.queueId}/parallel/round`, {
      walker,
    })) as ParallelState;
    if (!state.round || state.round.id === last) return;
    last = state.round.id;
    for (;;) {
      const connected = state.round!.lines.find((l) => l.callId === state.round!.connectedCallId);
      if (state.round!.settled && (!connected || FINISHED.includes(connected.status))) break;
      await stream.next(5_000);
      state = (await recorder.call(rep, 'GET', stateUrl)) as ParallelState;
    }
    const connected = state.round!.lines.find((l) => l.callId === state.round!.connectedCallId);
    if (connected)
      await recorder.call(rep, 'POST', '/api/dispositions', {
        callId: connected.callId,
        contactId: connected.contact.id,
        queueId: rep.queueId,
        disposition: 'answered',
      });
    await simulated(between(20, 80));
  }
}

/**
 * A reader refreshing every REPORT_EVERY_MS starts at a moment of its own within the first period, as readers who
 * came in at different times are: five first passes in the same instant (with the floor's first calls, the import's
 * start and the campaigns' creation) are a burst no floor sees, and with 90 samples an endpoint in a 3-minute phase
 * they alone would set its p95.
 */
const readersOwnMoment = () => new Promise((r) => setTimeout(r, between(0, REPORT_EVERY_MS)));

/** A rep who also reads their reports every 10 s, as a manager's screen refreshes. */
async function reportReader(rep: Rep, recorder: Recorder, until: number): Promise<void> {
  const day = new Date().toISOString().slice(0, 10);
  await readersOwnMoment();
  while (Date.now() < until) {
    await recorder.call(rep, 'GET', `/api/reports/overview?day=${day}&tz=UTC`);
    await recorder.call(rep, 'GET', `/api/reports/outcomes?day=${day}&tz=UTC&days=7`);
    await recorder.call(rep, 'GET', '/api/call-reports?limit=50');
    await new Promise((r) => setTimeout(r, REPORT_EVERY_MS));
  }
}

/**
 * A rep between calls, on the contact list: the first page, a search, the tab counts, their queues and campaigns,
 * every 10 s. With hundreds of users on one database these are the plans row security can mislead (decision 040).
 */
async function listReader(rep: Rep, recorder: Recorder, until: number): Promise<void> {
  await readersOwnMoment();
  while (Date.now() < until) {
    await recorder.call(rep, 'GET', '/api/contacts');
    await recorder.call(rep, 'GET', `/api/contacts?search=lead${Math.floor(between(1, 1000))}`);
    await recorder.call(rep, 'GET', '/api/contacts/counts');
    await recorder.call(rep, 'GET', '/api/queues');
    await recorder.call(rep, 'GET', '/api/email-campaigns');
    await new Promise((r) => setTimeout(r, REPORT_EVERY_MS));
  }
}

/** Reps number `from` to `to` - 1: signed up, approved, each with their contacts and queue. */
export async function makeReps(
  servers: ServerProcess[],
  owner: pg.Pool,
  from: number,
  to: number,
  contactsPerRep = CONTACTS_PER_REP,
): Promise<Rep[]> {
  const reps: Rep[] = [];
  for (let i = from; i < to; i++) {
    const base = servers[i % servers.length]!.base;
    const { cookie, userId } = await signUpBenchUser(
      base,
      `floor-rep-${i}@example.com`,
      `10.${Math.floor(i / 250)}.${i % 250}.1`,
    );
    const mode = i % 4 === 3 ? 'parallel' : 'power';
    reps.push({ base, cookie, userId, queueId: '', mode });
  }
  const ids = reps.map((r) => r.userId);
  // Approved, and calling the simulator's fictional numbers (no time zone) allowed, as the tests arrange it.
  await owner.query(
    `update user_profiles set role = 'user' where id = any($1::uuid[]) and role = 'pending'`,
    [ids],
  );
  await owner.query(
    `insert into consent_settings (user_id, unknown_local_time) select unnest($1::uuid[]), 'allow'
     on conflict (user_id) do update set unknown_local_time = 'allow'`,
    [ids],
  );
  const queues = await seedFloor(owner, reps, contactsPerRep, from);
  for (const rep of reps) rep.queueId = queues.get(rep.userId)!;
  return reps;
}

export type Phase = {
  reps: number;
  recorder: Recorder;
  seconds: number;
  serverCpu: number;
  /** The same for PostgreSQL (every backend) and for this benchmark's own process (the reps' browsers, the mail server). */
  postgresCpu: number;
  benchCpu: number;
  /** Share of the phase some task waited for a CPU, for I/O, for memory (pressure stall information). */
  stalled: { cpu: number; io: number; memory: number };
  machineBusy: number;
  peakRssMb: number;
  peakConnections: number;
  calls: number;
  /** Waits over 50 ms for a pooled connection the servers reported while the phase worked, and the longest. */
  /** `opening`: of `count`, the waits for a connection the pool had to open (none idle, room to grow). */
  poolWaits: { count: number; longestMs: number; opening: number };
  /** The same while the phase's streams all opened at once. */
  openingWaits: number;
  /** The 10 s windows of the phase in which a server's event loop was held over 50 ms, and the longest hold. */
  loopHolds: { windows: number; longestMs: number };
  /** What ran beside the reps, if anything did. */
  beside?: BackgroundFigures;
  /** What PostgreSQL's backends waited on, and the WAL written and flushed. */
  postgres: PostgresFigures;
  /** How late a process of its own that only sleeps woke up: stalls of the whole machine. */
  machineStalls: StallFigures;
};

const totalRssMb = (servers: ServerProcess[]) => servers.reduce((sum, s) => sum + s.rssMb(), 0);
const totalCpuSeconds = (servers: ServerProcess[]) => servers.reduce((sum, s) => sum + cpuSeconds(s.pid), 0);

export async function runPhase(
  servers: ServerProcess[],
  owner: pg.Pool,
  reps: Rep[],
  seconds: number,
  /** Started as the reps start; its figures read as they finish. */
  beside?: () => Promise<{ finish: () => Promise<BackgroundFigures> }>,
): Promise<Phase> {
  const recorder = new Recorder();
  const waitsAtOpen = servers.reduce((sum, s) => sum + s.poolWaits.count, 0);
  const streams = reps.map((rep) => openStream(rep, recorder));
  await Promise.all(streams.map((s) => s.ready));
  // Every stream opening in the same second (as after a server restart, when every browser reconnects) is a burst
  // of its own: its pool waits, reported within 10 s, are counted apart from the phase's.
  await new Promise((r) => setTimeout(r, 10_500));
  const openingWaits = servers.reduce((sum, s) => sum + s.poolWaits.count, 0) - waitsAtOpen;
  let peakRssMb = totalRssMb(servers);
  let peakConnections = 0;
  const sampler = setInterval(() => {
    peakRssMb = Math.max(peakRssMb, totalRssMb(servers));
    void owner
      .query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where datname = current_database() and usename <> current_user`,
      )
      .then((r) => (peakConnections = Math.max(peakConnections, r.rows[0]!.n)))
      .catch(() => undefined);
  }, 1000);
  for (const server of servers) {
    server.serverTimes.clear();
    server.slowRequests.length = 0;
  }
  const cpuBefore = totalCpuSeconds(servers);
  const postmaster = await postmasterPid(owner);
  const postgresBefore = postgresCpuSeconds(postmaster);
  const benchBefore = process.cpuUsage();
  const pressureBefore = pressureTotals();
  const waitsBefore = servers.reduce((sum, s) => sum + s.poolWaits.count, 0);
  const openingBefore = servers.reduce((sum, s) => sum + s.poolWaits.opening, 0);
  const holdsBefore = servers.reduce((sum, s) => sum + s.loopHolds.windows, 0);
  // The longest of each is the phase's own, not the streams' opening burst's or an earlier phase's.
  for (const server of servers) server.loopHolds.longestMs = server.poolWaits.longestMs = 0;
  const machineBefore = machineTimes();
  const callsBefore = await countCalls(owner);
  const postgres = await samplePostgres(owner);
  const probe = startStallProbe();
  const started = Date.now();
  const until = started + seconds * 1000;
  const background = beside?.();
  // Read when the reps finish; a failure then fails the run, not the process before it can stop its servers.
  background?.catch(() => undefined);
  await Promise.all([
    // A floor does not start in one instant: each rep begins within the first simulated minute.
    ...reps.map(async (rep, i) => {
      if (reps.length > 1) await simulated(between(0, 60));
      await (rep.mode === 'power' ? powerRep : parallelRep)(rep, streams[i]!, recorder, until).catch(
        () => undefined,
      );
    }),
    ...reps
      .slice(0, reps.length > 1 ? REPORT_READERS : 0)
      .map((rep) => reportReader(rep, recorder, until).catch(() => undefined)),
    ...reps
      .slice(REPORT_READERS, reps.length > 1 ? 2 * REPORT_READERS : 0)
      .map((rep) => listReader(rep, recorder, until).catch(() => undefined)),
  ]);
  const elapsed = (Date.now() - started) / 1000;
  const machineAfter = machineTimes();
  const serverCpu = (totalCpuSeconds(servers) - cpuBefore) / elapsed;
  const postgresCpu = (postgresCpuSeconds(postmaster) - postgresBefore) / elapsed;
  const benchUsage = process.cpuUsage(benchBefore);
  const pressureAfter = pressureTotals();
  const stalled = {
    cpu: (pressureAfter.cpu - pressureBefore.cpu) / 1e6 / elapsed,
    io: (pressureAfter.io - pressureBefore.io) / 1e6 / elapsed,
    memory: (pressureAfter.memory - pressureBefore.memory) / 1e6 / elapsed,
  };
  const benchCpu = (benchUsage.user + benchUsage.system) / 1e6 / elapsed;
  const postgresFigures = await postgres.finish();
  const machineStalls = await probe.finish();
  // Read as the reps stop (the import, if still running, is waited for).
  const besideFigures = await (await background)?.finish();
  clearInterval(sampler);
  // The servers report pool waits every 10 s: let the last report of the phase come in.
  await new Promise((r) => setTimeout(r, 10_500));
  const phase: Phase = {
    reps: reps.length,
    recorder,
    seconds: elapsed,
    serverCpu,
    postgresCpu,
    benchCpu,
    stalled,
    machineBusy: (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total),
    peakRssMb,
    peakConnections,
    calls: (await countCalls(owner)) - callsBefore,
    poolWaits: {
      count: servers.reduce((sum, s) => sum + s.poolWaits.count, 0) - waitsBefore,
      longestMs: Math.max(...servers.map((s) => s.poolWaits.longestMs)),
      opening: servers.reduce((sum, s) => sum + s.poolWaits.opening, 0) - openingBefore,
    },
    openingWaits,
    loopHolds: {
      windows: servers.reduce((sum, s) => sum + s.loopHolds.windows, 0) - holdsBefore,
      longestMs: Math.max(...servers.map((s) => s.loopHolds.longestMs)),
    },
    beside: besideFigures,
    postgres: postgresFigures,
    machineStalls,
  };
  for (const s of streams) s.close();
  const slow = servers.flatMap((server) => server.slowRequests);
  if (slow.length)
    console.error(`slow requests of ${reps.length} rep(s), where their time went:\n${slowSummary(slow)}`);
  if (SERVER_LOG === 'info') {
    const times = new Map<string, number[]>();
    for (const server of servers)
      for (const [key, list] of server.serverTimes) times.set(key, [...(times.get(key) ?? []), ...list]);
    const lines = [...times.entries()]
      .filter(([key]) => !key.includes('/api/events'))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, list]) => {
        const s = summarise(list);
        return `${key}: ${fmt(s.p50)} / ${fmt(s.p95)} / ${fmt(s.p99)} (${list.length})`;
      });
    console.error(
      `as the server measured it, ${reps.length} rep(s), p50 / p95 / p99 ms:\n${lines.join('\n')}`,
    );
  }
  return phase;
}

/** The slow requests the servers logged (BENCH_SLOW_LOG_MS), by route: mean total, connection, statements, server. */
function slowSummary(slow: SlowRequestReport[]): string {
  const byRoute = new Map<string, SlowRequestReport[]>();
  for (const r of slow) {
    const key = `${r.method} ${r.route}`;
    const list = byRoute.get(key) ?? [];
    list.push(r);
    byRoute.set(key, list);
  }
  const mean = (list: SlowRequestReport[], pick: (r: SlowRequestReport) => number, digits = 0) =>
    (list.reduce((sum, r) => sum + pick(r), 0) / list.length).toFixed(digits);
  return [...byRoute.entries()]
    .sort((a, b) => b[1].length - a[1].length)
    .map(
      ([route, list]) =>
        `${route}: ${list.length} slow, mean ${mean(list, (r) => r.totalMs)} ms = connection ${mean(list, (r) => r.connectionMs)} + statements ${mean(list, (r) => r.statementMs)} (${mean(list, (r) => r.statements)} of them) + server ${mean(list, (r) => r.serverMs)}, event loop busy ${mean(list, (r) => r.loopBusy, 2)}; slowest statement of the slowest: ${[...list].sort((a, b) => b.totalMs - a.totalMs)[0]!.slowest[0] ?? '–'}`,
    )
    .join('\n');
}

const countCalls = async (owner: pg.Pool) =>
  (await owner.query<{ n: number }>('select count(*)::int as n from calls')).rows[0]!.n;

/** Server memory with every rep signed in and no stream open, then with all their streams open: the cost of one. */
async function memoryPerStream(
  servers: ServerProcess[],
  reps: Rep[],
): Promise<{ before: number; after: number }> {
  const recorder = new Recorder();
  const before = totalRssMb(servers);
  const streams = reps.map((rep) => openStream(rep, recorder));
  await Promise.all(streams.map((s) => s.ready));
  await new Promise((r) => setTimeout(r, 3000));
  const after = totalRssMb(servers);
  for (const s of streams) s.close();
  await new Promise((r) => setTimeout(r, 1000));
  return { before, after };
}

/** The floor's INSTANCES server processes, pushed onto `servers` (so a caller's cleanup stops those started). */
export async function startFloorServers(
  servers: ServerProcess[],
  ownerUrl: string,
  env: Record<string, string> = {},
): Promise<void> {
  // One after the other: the first applies the migrations, the others find them applied.
  for (let i = 0; i < INSTANCES + (floorSetup.jobsApart ? 1 : 0); i++)
    servers.push(
      await startServerProcess(ownerUrl, {
        TRUST_PROXY: '1',
        DATABASE_POOL_SIZE: String(POOL_SIZE),
        SIMULATOR_TIME_SCALE: String(SCALE),
        LOG_LEVEL: SERVER_LOG,
        BACKGROUND_JOBS: floorSetup.jobsApart && i < INSTANCES ? 'off' : 'on',
        ...env,
      }),
    );
}

/** The servers that answer the reps: all but the jobs instance (the last one started), if there is one. */
export const answeringServers = (servers: ServerProcess[]) => servers.slice(0, INSTANCES);

/** How the floor's servers are set up, for the results' description. */
export function serversSummary(): string {
  const answering =
    INSTANCES === 1
      ? 'the server a process of its own'
      : `${INSTANCES} server processes on the one database, each rep on one of them`;
  return floorSetup.jobsApart
    ? `${answering}, running no background jobs, and one more server process running them (BACKGROUND_JOBS)`
    : answering;
}

export async function benchSalesFloor(ownerUrl: string): Promise<BenchResult> {
  const servers: ServerProcess[] = [];
  const owner = new pg.Pool({ connectionString: ownerUrl, max: 4 });
  const background = BACKGROUND ? await prepareBackground() : null;
  try {
    await startFloorServers(servers, ownerUrl, background?.env);
    // The first account of a fresh database is the administrator; the reps come after it.
    await signUpBenchUser(servers[0]!.base, 'floor-admin@example.com', '10.255.0.1');
    const accounts = await background?.accounts(servers[0]!.base, owner);
    const seedStarted = Date.now();
    const reps = await makeReps(answeringServers(servers), owner, 0, REPS);
    const seedSeconds = (Date.now() - seedStarted) / 1000;
    const memory = await memoryPerStream(servers, reps);
    const solo = await runPhase(servers, owner, [reps[0]!], SOLO_SECONDS);
    const beside =
      background && accounts
        ? () => startBackground(servers[0]!.base, accounts, background.csv, owner)
        : undefined;
    const floor = await runPhase(servers, owner, reps, MINUTES * 60, beside);
    return report(solo, floor, memory, seedSeconds);
  } finally {
    await owner.end();
    await Promise.all(servers.map((s) => s.stop()));
    await background?.close();
  }
}

export const cpuLine = (phase: Phase) =>
  `${phase.serverCpu.toFixed(2)} / ${phase.postgresCpu.toFixed(2)} / ${phase.benchCpu.toFixed(2)} / ${(100 * phase.machineBusy).toFixed(0)} %`;

export const stallLine = (phase: Phase) =>
  [phase.stalled.cpu, phase.stalled.io, phase.stalled.memory]
    .map((share) => `${(100 * share).toFixed(0)} %`)
    .join(' / ');

function report(
  solo: Phase,
  floor: Phase,
  memory: { before: number; after: number },
  seedSeconds: number,
): BenchResult {
  const rows: string[] = [];
  const keys = [...new Set([...floor.recorder.latencies.keys(), ...solo.recorder.latencies.keys()])].sort();
  for (const key of keys) {
    const soloLatencies = solo.recorder.latencies.get(key) ?? [];
    const one = summarise(soloLatencies);
    const many = summarise(floor.recorder.latencies.get(key) ?? []);
    const errors = (floor.recorder.errors.get(key) ?? []).length;
    const count = floor.recorder.latencies.get(key)?.length ?? 0;
    const reportRoute = key.includes('/reports') || key.includes('/call-reports');
    const met = meetsRepTargets(many) && errors === 0;
    rows.push(
      `| ${key} | ${soloLatencies.length ? `${fmt(one.p50)} / ${fmt(one.p95)} / ${fmt(one.p99)}` : '–'} | ${fmt(many.p50)} / ${fmt(many.p95)} / ${fmt(many.p99)} | ${count} | ${errors} | ${reportRoute ? '' : met ? 'yes' : 'NO'} |`,
    );
  }
  const soloDelay = summarise(solo.recorder.eventDelays);
  const delay = summarise(floor.recorder.eventDelays);
  const perStreamKb = ((memory.after - memory.before) * 1024) / Math.max(1, REPS);
  rows.push(
    `| event to its rep's open stream (a call's first change) | ${fmt(soloDelay.p50)} / ${fmt(soloDelay.p95)} / ${fmt(soloDelay.p99)} | ${fmt(delay.p50)} / ${fmt(delay.p95)} / ${fmt(delay.p99)} | ${floor.recorder.eventDelays.length} | | p95 ≤ 1 s: ${delay.p95 <= 1000 ? 'yes' : 'NO'} |`,
    `| server memory: ${REPS} signed in, no stream → ${REPS} streams open (MB) | | ${memory.before.toFixed(0)} → ${memory.after.toFixed(0)} | | | ${perStreamKb.toFixed(1)} KB a stream; ≤ 50 KB: ${perStreamKb <= 50 ? 'yes' : 'NO'} |`,
    `| server memory at its peak (MB) | ${solo.peakRssMb.toFixed(0)} | ${floor.peakRssMb.toFixed(0)} | | | |`,
    `| PostgreSQL connections of the server${INSTANCES > 1 ? 's' : ''} at their peak | ${solo.peakConnections} | ${floor.peakConnections} | | | pool ${POOL_SIZE}${INSTANCES > 1 ? ' each' : ''} |`,
    `| waits over 50 ms for a pooled connection while working (the longest; of them, while a new connection opened) | ${solo.poolWaits.count} | ${floor.poolWaits.count} (${floor.poolWaits.longestMs} ms; ${floor.poolWaits.opening} opening) | | | none: ${floor.poolWaits.count === 0 ? 'yes' : 'NO'} |`,
    `| 10 s windows in which the server's event loop was held over 50 ms (the longest hold) | ${solo.loopHolds.windows} | ${floor.loopHolds.windows} (${floor.loopHolds.longestMs} ms) | | | |`,
    `| the same while all the phase's event streams open in one second (a reconnect after a restart) | ${solo.openingWaits} | ${floor.openingWaits} | | | |`,
    `| CPU, cores busy: server / PostgreSQL / this benchmark (the reps' browsers, mail server) / whole machine busy | ${cpuLine(solo)} | ${cpuLine(floor)} | | | |`,
    `| share of the phase some task waited for a CPU / for I/O / for memory (pressure stall information) | ${stallLine(solo)} | ${stallLine(floor)} | | | |`,
    `| a process that only sleeps 10 ms at a time: how late it woke (the whole machine stalled) | ${stallProbeLine(solo.machineStalls)} | ${stallProbeLine(floor.machineStalls)} | | | |`,
    `| PostgreSQL: the servers' backends active on average, what they waited on (share of samples), commits, WAL | ${postgresLine(solo.postgres)} | ${postgresLine(floor.postgres)} | | | |`,
    ...(floor.beside ? backgroundRows(floor.beside, floor.recorder.timeline) : []),
    `| calls placed (phase length) | ${solo.calls} (${solo.seconds.toFixed(0)} s) | ${floor.calls} (${floor.seconds.toFixed(0)} s) | | | |`,
  );
  if (floor.recorder.slow.length)
    console.error('requests over 1 s (phase second, endpoint, ms, rep):\n' + floor.recorder.slow.join('\n'));
  const errorSamples = [...floor.recorder.errors.entries()].map(([k, v]) => `${k}: ${v[0]}`).slice(0, 5);
  if (errorSamples.length) console.error('floor errors (first of each):\n' + errorSamples.join('\n'));
  return {
    name: `Sales floor: ${REPS} reps on ${INSTANCES === 1 ? 'one server' : `${INSTANCES} server instances`}`,
    dataSize: `${REPS} reps (a quarter in Parallel mode), ${CONTACTS_PER_REP.toLocaleString()} contacts each in their own queue (seeded in ${seedSeconds.toFixed(0)} s); time scale ${SCALE} (a call every 60–120 simulated s); ${REPORT_READERS} of them refresh their reports every 10 s, ${REPORT_READERS} others their contact list (first page, a search, the tab counts), queues and campaigns, each reader from a moment of its own within its first 10 s; ${serversSummary()}, pool ${POOL_SIZE} each${SERVER_LOG === 'info' ? ', logging every request' : ''}; one rep alone for ${SOLO_SECONDS} s, then all ${REPS} for ${MINUTES} min. ${floor.beside ? `Beside them: ${backgroundSummary()}.` : 'Nothing beside them (BENCH_BACKGROUND=0).'}`,
    header:
      '| endpoint | 1 rep p50 / p95 / p99 (ms) | floor p50 / p95 / p99 (ms) | requests | errors | p95 ≤ 100, p99 ≤ 300, 0 errors |',
    rows,
  };
}
