import { monitorEventLoopDelay } from 'node:perf_hooks';

/** A 10 s window whose event loop was held longer than this at its worst is reported. */
export const LOOP_DELAY_REPORTED_MS = 50;
const REPORT_EVERY_MS = 10_000;
const SAMPLE_MS = 10;

export type LoopDelaySummary = { maxMs: number; p99Ms: number; meanMs: number };

/**
 * How long this process's event loop has been held since the last reset: the worst hold, the 99th percentile and
 * the mean, each less the sampling timer's own 10 ms (what came on top of it).
 */
export function watchLoopDelay(): { read: () => LoopDelaySummary; reset: () => void; stop: () => void } {
  const histogram = monitorEventLoopDelay({ resolution: SAMPLE_MS });
  histogram.enable();
  const held = (ns: number) => Math.max(0, Math.round(ns / 1e5) / 10 - SAMPLE_MS);
  return {
    read: () =>
      histogram.count === 0
        ? { maxMs: 0, p99Ms: 0, meanMs: 0 }
        : { maxMs: held(histogram.max), p99Ms: held(histogram.percentile(99)), meanMs: held(histogram.mean) },
    reset: () => histogram.reset(),
    stop: () => histogram.disable(),
  };
}

/**
 * Watches how long this process's event loop was held (a callback that ran long, so every request and stream waited
 * behind it) and reports each 10 s window whose worst hold passed LOOP_DELAY_REPORTED_MS, so an operator sees that
 * the server's own work, not PostgreSQL or the pool, made requests slow. Returns the function that stops it.
 */
export function trackLoopDelay(
  report: (summary: LoopDelaySummary) => void,
  everyMs = REPORT_EVERY_MS,
): () => void {
  const loop = watchLoopDelay();
  const timer = setInterval(() => {
    const summary = loop.read();
    if (summary.maxMs > LOOP_DELAY_REPORTED_MS) report(summary);
    loop.reset();
  }, everyMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    loop.stop();
  };
}
