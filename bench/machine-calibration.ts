import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { sample, summarise } from './stats.ts';

/**
 * How fast this machine is at the moment a benchmark runs, on a fixed workload that never changes with the code
 * (decision 060): this box's speed drifts from day to day by more than most changes move a figure, so each section
 * says how fast the machine was before and after its run, and two runs compare only when these agree.
 *
 * - one core: a JSON round trip of 1,000 contact-like rows, 150 times (the kind of work a request's body costs);
 * - both cores at once: the same in two threads together (near one core's time when the machine gives both);
 * - a committed insert: one row, autocommit, median of 200 (the WAL flush every write request waits for);
 * - a scan: the sum of 3,000,000 generated rows in PostgreSQL, median of 3 (its executor's CPU speed).
 */
export type Calibration = { oneCoreMs: number; bothCoresMs: number; commitMs: number; scanMs: number };

const CPU_WORK = `
const rows = Array.from({ length: 1000 }, (_, i) => ({
  id: 'c' + i, firstName: 'Ada' + i, lastName: 'Lovelace', phone: '+4420' + (7946000000 + i),
  email: 'ada' + i + '@example.com', tags: ['lead', 'q' + (i % 4)], score: i * 1.5,
}));
let total = 0;
for (let round = 0; round < 150; round++) total += JSON.parse(JSON.stringify(rows)).length;
`;

function timeInThread(): Promise<number> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       const start = performance.now();
       ${CPU_WORK}
       parentPort.postMessage(performance.now() - start);`,
      { eval: true },
    );
    worker.once('message', (ms: number) => resolve(ms));
    worker.once('error', reject);
  });
}

const median = (values: number[]) => summarise(values).p50;

export async function calibrate(databaseUrl: string): Promise<Calibration> {
  const oneCore: number[] = [];
  const bothCores: number[] = [];
  for (let i = 0; i < 3; i++) {
    oneCore.push(await timeInThread());
    bothCores.push(Math.max(...(await Promise.all([timeInThread(), timeInThread()]))));
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('create table if not exists calibration (n integer)');
    const commits = await sample(() => client.query('insert into calibration values (1)'), 200, 0);
    await client.query('drop table calibration');
    const scans = await sample(() => client.query('select sum(n) from generate_series(1, 3000000) n'), 3, 0);
    return {
      oneCoreMs: median(oneCore),
      bothCoresMs: median(bothCores),
      commitMs: median(commits),
      scanMs: median(scans),
    };
  } finally {
    await client.end();
  }
}

/** "Machine speed before / after the run …: one core 212 / 230 ms, …": the figures before and after, as a sentence. */
export function calibrationLine(before: Calibration, after: Calibration): string {
  const pair = (key: keyof Calibration, digits: number) =>
    `${before[key].toFixed(digits)} / ${after[key].toFixed(digits)} ms`;
  return (
    `Machine speed before / after the run (a fixed workload, lower is faster; decision 060): ` +
    `one core ${pair('oneCoreMs', 0)}, both cores at once ${pair('bothCoresMs', 0)}, ` +
    `a committed insert ${pair('commitMs', 2)}, a 3,000,000-row scan ${pair('scanMs', 0)}.`
  );
}
