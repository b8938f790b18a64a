import { describe, expect, it } from 'vitest';
import { trackLoopDelay, type LoopDelaySummary } from './event-loop-delay.ts';

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
