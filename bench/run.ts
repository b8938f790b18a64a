import os from 'node:os';
import { writeFileSync } from 'node:fs';
import { startTestPostgres, withDatabase } from '../server/test/test-postgres.ts';
import { benchSessionCheck, type BenchResult } from './session-check.bench.ts';

/**
 * `npm run bench`: seeds data at scale in a fresh database and measures each target against the raw-SQL floor of
 * the same run, then writes bench/RESULTS.md. Not part of `npm test`.
 */
async function main(): Promise<void> {
  const postgres = await startTestPostgres(`callcrm_bench_${process.pid}`);
  const results: BenchResult[] = [];
  try {
    results.push(await benchSessionCheck(withDatabase(postgres.adminUrl, postgres.template)));
  } finally {
    await postgres.stop();
  }
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    '# Benchmark results',
    '',
    `Run: ${new Date().toISOString()} · machine: ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}, Node ${process.version}`,
    'PostgreSQL: embedded 15.18 (or TEST_DATABASE_URL), server and database on the same machine. Figures in milliseconds.',
    '',
  ];
  for (const r of results) {
    lines.push(
      `## ${r.name}`,
      '',
      `Data: ${r.dataSize}`,
      '',
      '| measure | p50 | p95 | p99 |',
      '|---|---|---|---|',
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
