import pg from 'pg';
import { signUpBenchUser } from './bench-server.ts';
import { backgroundSummary, prepareBackground, startBackground } from './floor-background.ts';
import {
  BACKGROUND,
  cpuLine,
  makeReps,
  answeringServers,
  serversSummary,
  floorSetup,
  stallLine,
  runPhase,
  SCALE,
  startFloorServers,
  type Phase,
  type Rep,
} from './sales-floor.bench.ts';
import type { ServerProcess } from './server-process.ts';
import { meetsRepTargets } from './rep-targets.ts';
import { postgresLine, postgresStatements } from './postgres-waits.ts';
import { stallProbeLine } from './stall-probe.ts';
import { fmt, summarise } from './stats.ts';
import type { BenchResult } from './session-check.bench.ts';

/**
 * The knee of the sales floor (`npm run bench floor-knee`): the floor run again and again on one server, more reps
 * each time (BENCH_KNEE_REPS, say 200,400,600), the same work beside them each time (new campaigns, a new import),
 * until a rep's target breaks. Reps added to a step keep working in the next. Reported per step: the worst rep
 * endpoint, errors, event delay, pool waits, CPU and memory; then the largest floor that held and what ran out.
 */
const STEPS = (process.env.BENCH_KNEE_REPS ?? '200,400,600,800').split(',').map(Number);
const CONTACTS_PER_REP = Number(process.env.BENCH_CONTACTS_PER_REP ?? 10_000);
const MINUTES = Number(process.env.BENCH_MINUTES ?? 3);

/** A rep's endpoints (reports are a manager's screen, measured but not held to a rep's targets). */
const isRepEndpoint = (key: string) => !key.includes('/reports') && !key.includes('/call-reports');

/** Each rep endpoint's requests in each minute of the phase (by when they started). */
function byMinute(phase: Phase): Map<string, number[][]> {
  const start = Math.min(...phase.recorder.timeline.map((t) => t.at));
  const byKey = new Map<string, number[][]>();
  for (const { key, at, ms } of phase.recorder.timeline) {
    const minute = Math.min(MINUTES - 1, Math.floor((at - start) / 60_000));
    const minutes = byKey.get(key) ?? Array.from({ length: MINUTES }, () => []);
    minutes[minute]!.push(ms);
    byKey.set(key, minutes);
  }
  return byKey;
}

/** Each rep endpoint's p95 minute by minute: whether the start (every rep and all the work beside at once) or the whole is slow. */
const p95ByMinute = (phase: Phase) =>
  [...byMinute(phase).entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([key, minutes]) =>
        `${key}: ${minutes.map((m) => (m.length ? `${fmt(summarise(m).p95)} (${m.length})` : '–')).join(' | ')}`,
    )
    .join('\n');

/**
 * Each rep endpoint's p95 over the reps' first request of its kind against the rest: whether what is slow at the
 * start is the first of something (a rep's first call, a connection's first plans) rather than the load.
 */
const p95FirstAndRest = (phase: Phase) => {
  const byKey = new Map<string, { first: number[]; rest: number[] }>();
  for (const { key, ms, first } of phase.recorder.timeline) {
    const lists = byKey.get(key) ?? { first: [], rest: [] };
    (first ? lists.first : lists.rest).push(ms);
    byKey.set(key, lists);
  }
  const p95 = (list: number[]) => (list.length ? `${fmt(summarise(list).p95)} (${list.length})` : '–');
  return [...byKey.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, { first, rest }]) => `${key}: first ${p95(first)} | rest ${p95(rest)}`)
    .join('\n');
};

/** The slowest rep endpoint's p95 in each minute (endpoints with at least 20 requests in it), and which it was. */
const worstByMinute = (phase: Phase) => {
  const perKey = byMinute(phase);
  return Array.from({ length: MINUTES }, (_, minute) => {
    let worst = { key: '–', p95: 0 };
    for (const [key, minutes] of perKey) {
      const list = minutes[minute]!;
      if (!isRepEndpoint(key) || list.length < 20) continue;
      const p95 = summarise(list).p95;
      if (p95 > worst.p95) worst = { key, p95 };
    }
    return `${fmt(worst.p95)} (${worst.key})`;
  }).join(' / ');
};

type Step = { reps: number; phase: Phase; worst: { key: string; p95: number; p99: number }; errors: number };

function judge(reps: number, phase: Phase): Step & { holds: boolean; broke: string[] } {
  let worst = { key: '', p95: 0, p99: 0 };
  let errors = 0;
  const broke: string[] = [];
  for (const [key, list] of phase.recorder.latencies) {
    if (!isRepEndpoint(key)) continue;
    const s = summarise(list);
    const failed = (phase.recorder.errors.get(key) ?? []).length;
    errors += failed;
    if (s.p95 > worst.p95) worst = { key, p95: s.p95, p99: s.p99 };
    if (!meetsRepTargets(s) || failed)
      broke.push(`${key} p95 ${fmt(s.p95)} / p99 ${fmt(s.p99)} ms${failed ? `, ${failed} errors` : ''}`);
  }
  const delay = summarise(phase.recorder.eventDelays);
  if (delay.p95 > 1000) broke.push(`event delay p95 ${fmt(delay.p95)} ms`);
  if (phase.poolWaits.count) broke.push(`${phase.poolWaits.count} pool waits over 50 ms`);
  return { reps, phase, worst, errors, holds: broke.length === 0, broke };
}

export async function benchFloorKnee(ownerUrl: string): Promise<BenchResult> {
  const servers: ServerProcess[] = [];
  const owner = new pg.Pool({ connectionString: ownerUrl, max: 4 });
  const background = BACKGROUND ? await prepareBackground() : null;
  const steps: ReturnType<typeof judge>[] = [];
  try {
    await startFloorServers(servers, ownerUrl, background?.env);
    await signUpBenchUser(servers[0]!.base, 'floor-admin@example.com', '10.255.0.1');
    const reps: Rep[] = [];
    for (const [round, n] of STEPS.entries()) {
      reps.push(...(await makeReps(answeringServers(servers), owner, reps.length, n, CONTACTS_PER_REP)));
      const accounts = await background?.accounts(servers[0]!.base, owner, round);
      const beside =
        background && accounts
          ? () => startBackground(servers[0]!.base, accounts, background.csv, owner)
          : undefined;
      const step = judge(n, await runPhase(servers, owner, reps, MINUTES * 60, beside));
      steps.push(step);
      console.error(`p95 per minute of the phase, ${n} reps:\n${p95ByMinute(step.phase)}`);
      console.error(
        `p95 of each rep's first request of a kind and of the rest, ${n} reps:\n${p95FirstAndRest(step.phase)}`,
      );
      console.error(
        `PostgreSQL backends by statement, ${n} reps:\n${postgresStatements(step.phase.postgres)}`,
      );
      const imported = step.phase.beside?.import;
      if (imported)
        console.error(
          `the import beside ${n} reps: ${imported.finished ? 'done in' : 'still running after'} ${imported.seconds.toFixed(0)} s, ${imported.created.toLocaleString()} contacts ${imported.finished ? 'created' : 'saved so far'}`,
        );
      console.error(`floor knee: ${n} reps ${step.holds ? 'hold' : `break: ${step.broke.join('; ')}`}`);
      if (!step.holds) break;
    }
  } finally {
    await owner.end();
    await Promise.all(servers.map((s) => s.stop()));
    await background?.close();
  }
  const held = steps.filter((s) => s.holds).at(-1);
  const broken = steps.find((s) => !s.holds);
  const rows = steps.map((s) => {
    const delay = summarise(s.phase.recorder.eventDelays);
    return `| ${s.reps} | ${s.worst.key} ${fmt(s.worst.p95)} / ${fmt(s.worst.p99)} | ${worstByMinute(s.phase)} | ${s.errors} | ${fmt(delay.p95)} | ${s.phase.poolWaits.count} (${s.phase.openingWaits}; ${s.phase.poolWaits.opening} opening) | ${s.phase.loopHolds.windows} (${s.phase.loopHolds.longestMs} ms) | ${cpuLine(s.phase)} | ${stallLine(s.phase)} | ${s.phase.peakRssMb.toFixed(0)} | ${s.phase.peakConnections} | ${s.phase.calls} | ${postgresLine(s.phase.postgres)} | ${stallProbeLine(s.phase.machineStalls)} | ${s.holds ? 'yes' : `NO: ${s.broke.join('; ')}`} |`;
  });
  rows.push(
    `| **knee** | the largest floor that held: ${held ? `**${held.reps} reps**` : 'none of the steps'}; ${broken ? `first to break at ${broken.reps}: ${broken.broke.join('; ')}` : `no step broke (raise BENCH_KNEE_REPS past ${STEPS.at(-1)})`} | | | | | | | | | | | | | |`,
  );
  return {
    name: `Sales floor: the knee on one server${floorSetup.jobsApart ? ', background jobs in a process of their own' : ''}`,
    dataSize: `steps of ${STEPS.join(', ')} reps, each step adding reps to the last (a quarter in Parallel mode, ${CONTACTS_PER_REP.toLocaleString()} contacts each in their own queue; ${serversSummary()}), each running ${MINUTES} min of the sales-floor flow (its list and report readers each from a moment of their own within their first 10 s) at ${SCALE === 1 ? 'real pace (time scale 1: a call every 60–120 s)' : `time scale ${SCALE} (a call every ${(60 * SCALE).toFixed(0)}–${(120 * SCALE).toFixed(0)} s: the load of ${(1 / SCALE).toFixed(0)} times as many reps)`}; ${BACKGROUND ? `beside each step: ${backgroundSummary()}, started anew` : 'nothing beside them (BENCH_BACKGROUND=0)'}. Stops at the first step that breaks a target. Pool waits: while working (while all streams opened; of the first, while a new connection opened).`,
    header:
      '| reps | slowest rep endpoint p95 / p99 (ms) | slowest rep endpoint p95 in minute 1 / 2 / … of the phase (ms) | errors | event delay p95 (ms) | pool waits > 50 ms | event loop held > 50 ms: 10 s windows (longest) | CPU cores: server / PostgreSQL / benchmark / machine busy | stalled on CPU / I/O / memory | peak server RSS (MB) | peak connections | calls placed | PostgreSQL: backends active, their waits, commits, WAL | a process that only sleeps 10 ms at a time: how late it woke | targets hold |',
    rows,
  };
}
