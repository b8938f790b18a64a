import { describe, expect, it } from 'vitest';
import { trackLoopDelay, watchLoopDelay, type LoopDelaySummary } from './event-loop-delay.ts';

const hold = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('trackLoopDelay', () => {
  // A quiet window is not asserted: on a loaded machine the process itself may wait for a CPU that long.
  it('reports the window in which a callback held the event loop, with how long it held it', async () => {
    const reports: LoopDelaySummary[] = [];
    const stop = trackLoopDelay((summary) => reports.push(summary), 400);
    try {
      await sleep(100);
      hold(150);
      await sleep(500);
      const worst = Math.max(...reports.map((r) => r.maxMs));
      expect(worst).toBeGreaterThanOrEqual(140);
      expect(reports.every((r) => r.p99Ms <= r.maxMs && r.meanMs <= r.maxMs)).toBe(true);
    } finally {
      stop();
    }
  });

  it('stops reporting once stopped', async () => {
    const reports: LoopDelaySummary[] = [];
    const stop = trackLoopDelay((summary) => reports.push(summary), 100);
    stop();
    hold(150);
    await sleep(300);
    expect(reports).toEqual([]);
  });
});

describe('watchLoopDelay', () => {
  it('reads the worst hold since it started or was reset, less the sampling interval', async () => {
    const loop = watchLoopDelay();
    try {
      await sleep(50);
      hold(120);
      await sleep(50);
      const held = loop.read();
      expect(held.maxMs).toBeGreaterThanOrEqual(105);
      expect(held.p99Ms).toBeLessThanOrEqual(held.maxMs);
      loop.reset();
      // Nothing sampled since the reset: nothing held.
      expect(loop.read()).toEqual({ maxMs: 0, p99Ms: 0, meanMs: 0 });
    } finally {
      loop.stop();
    }
  });
});
