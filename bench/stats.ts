/** Latency figures of a sample, in milliseconds. */
export function summarise(samples: number[]): { p50: number; p95: number; p99: number; mean: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return {
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    mean: sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1),
  };
}

export async function time(run: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export const fmt = (ms: number) => ms.toFixed(2);

/** Timings of `reps` sequential runs after `warmup` untimed ones. */
export async function sample(run: () => Promise<unknown>, reps: number, warmup: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < reps + warmup; i++) {
    const ms = await time(run);
    if (i >= warmup) out.push(ms);
  }
  return out;
}
