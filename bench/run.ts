import os from 'node:os';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { adminQuery, startTestPostgres, withDatabase } from '../server/test/test-postgres.ts';
import { benchContactList } from './contacts-list.bench.ts';
import { benchContactTransfer } from './contacts-transfer.bench.ts';
import { benchEmailSend } from './email-send.bench.ts';
import { benchCalls } from './calls.bench.ts';
import { benchHardening } from './hardening.bench.ts';
import { benchFirstLoad } from './first-load.bench.ts';
import { benchQueues } from './queues.bench.ts';
import { benchConsent } from './consent.bench.ts';
import { benchCampaigns } from './campaigns.bench.ts';
import { benchCampaignDrill } from './campaign-drill.bench.ts';
import { benchSmsDrill } from './sms-drill.bench.ts';
import { benchCallReports } from './call-reports.bench.ts';
import { benchReports } from './reports.bench.ts';
import { benchParallelDialing, parallelSetup } from './parallel-dialing.bench.ts';
import { benchIncomingCalls } from './incoming-calls.bench.ts';
import { benchRecordings } from './recordings.bench.ts';
import { benchSessionCheck, type BenchResult } from './session-check.bench.ts';
import { benchApiKeys } from './api-keys.bench.ts';
import { benchWebhookFanout, fanoutSetup } from './webhook-fanout.bench.ts';
import { benchSalesFloor } from './sales-floor.bench.ts';
import { benchFloorKnee } from './floor-knee.bench.ts';
import { floorSetup } from './sales-floor.bench.ts';
import { calibrate, calibrationLine } from './machine-calibration.ts';

/**
 * A variant sets its flag for its own run only, then puts back what it was: `parallel-dialing` named after
 * `parallel-dialing-next-day` in the same command measures the first day again, `floor-knee` after
 * `floor-knee-jobs-apart` runs the jobs in the server (unless the environment asked for them apart).
 */
async function onlyThisRun<K extends string>(
  setup: Record<K, boolean>,
  flag: K,
  run: () => Promise<BenchResult>,
): Promise<BenchResult> {
  const was = setup[flag];
  setup[flag] = true;
  try {
    return await run();
  } finally {
    setup[flag] = was;
  }
}

const BENCHES: Record<string, (ownerUrl: string) => Promise<BenchResult>> = {
  session: benchSessionCheck,
  contacts: benchContactList,
  transfer: benchContactTransfer,
  email: benchEmailSend,
  calls: benchCalls,
  hardening: benchHardening,
  'first-load': benchFirstLoad,
  queues: benchQueues,
  consent: benchConsent,
  campaigns: benchCampaigns,
  'campaign-drill': benchCampaignDrill,
  'sms-drill': benchSmsDrill,
  'call-reports': benchCallReports,
  reports: benchReports,
  'parallel-dialing': benchParallelDialing,
  'parallel-dialing-next-day': (ownerUrl) =>
    onlyThisRun(parallelSetup, 'nextDay', () => benchParallelDialing(ownerUrl)),
  'incoming-calls': benchIncomingCalls,
  recordings: benchRecordings,
  'api-keys': benchApiKeys,
  'webhook-fanout': benchWebhookFanout,
  'webhook-fanout-jobs-apart': (ownerUrl) =>
    onlyThisRun(fanoutSetup, 'jobsApart', () => benchWebhookFanout(ownerUrl)),
  floor: benchSalesFloor,
  'floor-knee': benchFloorKnee,
  'floor-knee-jobs-apart': (ownerUrl) => onlyThisRun(floorSetup, 'jobsApart', () => benchFloorKnee(ownerUrl)),
};

/**
 * `npm run bench [name...]`: each benchmark seeds its own fresh database at scale and measures against the
 * raw-SQL floor of the same run, then bench/RESULTS.md is written. Not part of `npm test`.
 */
async function main(): Promise<void> {
  const chosen = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(BENCHES);
  const postgres = await startTestPostgres(`callcrm_bench_${process.pid}`);
  const results: { result: BenchResult; speed: string }[] = [];
  const calibrationDatabase = `callcrm_bench_calibration_${process.pid}`;
  try {
    await adminQuery(postgres.adminUrl, `create database ${calibrationDatabase}`);
    const calibrationUrl = withDatabase(postgres.adminUrl, calibrationDatabase);
    for (const name of chosen) {
      const bench = BENCHES[name];
      if (!bench) throw new Error(`unknown benchmark ${name}; known: ${Object.keys(BENCHES).join(', ')}`);
      const database = `callcrm_bench_${name.replace(/\W/g, '_')}_${process.pid}`;
      await adminQuery(postgres.adminUrl, `create database ${database} template ${postgres.template}`);
      try {
        const before = await calibrate(calibrationUrl);
        console.error(`running ${name}...`);
        const result = await bench(withDatabase(postgres.adminUrl, database));
        results.push({ result, speed: calibrationLine(before, await calibrate(calibrationUrl)) });
      } finally {
        await adminQuery(postgres.adminUrl, `drop database if exists ${database} with (force)`);
      }
    }
  } finally {
    // A PostgreSQL of your own (TEST_DATABASE_URL) keeps no calibration database behind.
    await adminQuery(postgres.adminUrl, `drop database if exists ${calibrationDatabase} with (force)`);
    await postgres.stop();
  }
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const machine = `${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}, Node ${process.version}`;
  const file = new URL('./RESULTS.md', import.meta.url);
  const sections = readSections(existsSync(file) ? readFileSync(file, 'utf8') : '');
  for (const [i, { result: r, speed }] of results.entries()) {
    sections.set(chosen[i]!, [
      `## ${r.name}`,
      '',
      `Run: ${new Date().toISOString()} · machine: ${machine}`,
      '',
      speed,
      '',
      `Data: ${r.dataSize}`,
      '',
      r.header,
      r.header.replace(/[^|]+/g, '---'),
      ...r.rows,
      '',
    ]);
  }
  const lines = [
    '# Benchmark results',
    '',
    'PostgreSQL: embedded 15.18 (or TEST_DATABASE_URL), server, database and client on the same machine. Figures in milliseconds.',
    'Floor: the same SQL the API runs, sent straight to PostgreSQL by the owner (no HTTP, session check or per-request transaction).',
    'Each section is rewritten when its benchmark runs (`npm run bench <name>`); the others keep their last run.',
    '',
  ];
  for (const name of Object.keys(BENCHES)) {
    const section = sections.get(name);
    if (section) lines.push(`<!-- bench:${name} -->`, ...section);
  }
  writeFileSync(file, lines.join('\n'));
  console.log(lines.join('\n'));
}

/** The sections of an existing RESULTS.md, by benchmark name (marked `<!-- bench:name -->`). */
function readSections(text: string): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const line of text.split('\n')) {
    const marker = /^<!-- bench:([a-z-]+) -->$/.exec(line);
    if (marker) {
      current = [];
      sections.set(marker[1]!, current);
    } else current?.push(line);
  }
  return sections;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
