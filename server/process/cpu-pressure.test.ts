import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { someStalledMicros, watchCpuPressure } from './cpu-pressure.ts';

const pressure = (some: number) =>
  `some avg10=0.67 avg60=1.73 avg300=0.61 total=${some}\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n`;

/** A watch over readings and clock times given in turn. */
function watchOver(readings: (number | null)[], times: number[]) {
  return watchCpuPressure(
    () => Promise.resolve(readings.shift() ?? null),
    () => times.shift() ?? 0,
  );
}

describe('someStalledMicros', () => {
  it('reads the "some" total, not the "full" one', () => {
    expect(someStalledMicros(pressure(2_375_362))).toBe(2_375_362);
  });

  it('is null for a text without it', () => {
    expect(someStalledMicros('')).toBeNull();
    expect(someStalledMicros('full avg10=0.00 avg60=0.00 avg300=0.00 total=12\n')).toBeNull();
  });
});

describe('watchCpuPressure', () => {
  it('answers the share of the time since it was last asked that some task waited for a CPU', async () => {
    // 50 ms of waiting in 100 ms, then 10 ms in the next 200 ms.
    const watch = watchOver([1_000_000, 1_050_000, 1_060_000], [0, 100, 300]);
    expect(await watch.seen()).toBeCloseTo(0.5, 6);
    expect(await watch.seen()).toBeCloseTo(0.05, 6);
  });

  it('never answers more than all of the time, or less than none of it', async () => {
    const watch = watchOver([0, 500_000, 400_000], [0, 100, 200]);
    expect(await watch.seen()).toBe(1);
    expect(await watch.seen()).toBe(0);
  });

  it('is null where the kernel does not say, then measures from the next reading it gets', async () => {
    const watch = watchOver([null, 1_000, 21_000], [0, 100, 200]);
    expect(await watch.seen()).toBeNull();
    expect(await watch.seen()).toBeCloseTo(0.2, 6);
  });

  it.runIf(existsSync('/proc/pressure/cpu'))('reads this machine', async () => {
    const watch = watchCpuPressure();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const share = await watch.seen();
    expect(share).not.toBeNull();
    expect(share).toBeGreaterThanOrEqual(0);
    expect(share).toBeLessThanOrEqual(1);
  });
});
