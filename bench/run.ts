import os from 'node:os';
import { writeFileSync } from 'node:fs';
import { adminQuery, startTestPostgres, withDatabase } from '../server/test/test-postgres.ts';
import { benchContactList } from './contacts-list.bench.ts';
import { benchSessionCheck, type BenchResult } from './session-check.bench.ts';

const BENCHES: Record<string, (ownerUrl: string) => Promise<BenchResult>> = {
  session: benchSessionCheck,
  contacts: benchContactList,
};

/**
 * `npm run bench [name...]`: each benchmark seeds its own fresh database at scale and measures against the
 * raw-SQL floor of the same run, then bench/RESULTS.md is written. Not part of `npm test`.
 */
async function main(): Promise<void> {
  const chosen = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(BENCHES);
  const postgres = await startTestPostgres(`callcrm_bench_${process.pid}`);
  const results: BenchResult[] = [];
  try {
    for (const name of chosen) {
      const bench = BENCHES[name];
      if (!bench) throw new Error(`unknown benchmark ${name}; known: ${Object.keys(BENCHES).join(', ')}`);
      const database = `callcrm_bench_${name}_${process.pid}`;
      await adminQuery(postgres.adminUrl, `create database ${database} template ${postgres.template}`);
      try {
        console.error(`running ${name}...`);
        results.push(await bench(withDatabase(postgres.adminUrl, database)));
      } finally {
        await adminQuery(postgres.adminUrl, `drop database if exists ${database} with (force)`);
      }
    }
  } finally {
    await postgres.stop();
  }
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    '# Benchmark results',
    '',
    `Run: ${new Date().toISOString()} · machine: ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}, Node ${process.version}`,
    'PostgreSQL: embedded 15.18 (or TEST_DATABASE_URL), server, database and client on the same machine. Figures in milliseconds.',
    'Floor: the same SQL the API runs, sent straight to PostgreSQL by the owner (no HTTP, session check or per-request transaction).',
    '',
  ];
  for (const r of results) {
    lines.push(
      `## ${r.name}`,
      '',
      `Data: ${r.dataSize}`,
      '',
      r.header,
      r.header.replace(/[^|]+/g, '---'),
      ...r.rows,
      '',
    );
  }
  writeFileSync(new URL('./RESULTS.md', import.meta.url), lines.join('\n'));
  console.log(lines.join('\n'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
