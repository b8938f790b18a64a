import { monitorEventLoopDelay } from 'node:perf_hooks';

/** A 10 s window whose event loop was held longer than this at its worst is reported. */
export const LOOP_DELAY_REPORTED_MS = 50;
const REPORT_EVERY_MS = 10_000;

export type LoopDelaySummary = { maxMs: number; p99Ms: number; meanMs: number };

/**
 * Watches how long this process's event loop was held (a callback that ran long, so every request and stream waited
 * behind it) and reports each 10 s window whose worst hold passed LOOP_DELAY_REPORTED_MS, so an operator sees that
 * the server's own work, not PostgreSQL or the pool, made requests slow. Returns the function that stops it.
 */
export function trackLoopDelay(
  report: (summary: LoopDelaySummary) => void,
  everyMs = REPORT_EVERY_MS,
): () => void {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const ms = (ns: number) => Math.round(ns / 1e5) / 10;
  const timer = setInterval(() => {
    // The histogram counts the sampling timer's own 10 ms; the hold is what came on top of it.
    const maxMs = ms(histogram.max) - 10;
    if (histogram.count > 0 && maxMs > LOOP_DELAY_REPORTED_MS)
      report({
        maxMs,
        p99Ms: Math.max(0, ms(histogram.percentile(99)) - 10),
        meanMs: Math.max(0, ms(histogram.mean) - 10),
      });
    histogram.reset();
  }, everyMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    histogram.disable();
  };
}
