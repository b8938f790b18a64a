import { readFile } from 'node:fs/promises';

/** Where Linux tells how long tasks waited for a CPU (pressure stall information, kernel 4.20 and later). */
const CPU_PRESSURE_FILE = '/proc/pressure/cpu';

/**
 * The "some" total of a /proc/pressure/cpu text: the microseconds, since boot, during which at least one runnable
 * task waited for a CPU (Documentation/accounting/psi.rst). Null for a text without it.
 */
export function someStalledMicros(text: string): number | null {
  const match = /^some\b.*\btotal=(\d+)/m.exec(text);
  return match ? Number(match[1]) : null;
}

/** This machine's "some" total, or null where the kernel does not say (not Linux, a kernel without it). */
export const readCpuStalledMicros = () =>
  readFile(CPU_PRESSURE_FILE, 'utf8').then(someStalledMicros, () => null);

type Reading = { micros: number; atMs: number };

/**
 * Watches how crowded this machine's CPUs are: `seen()` answers the share of the time since it was last asked (or
 * since the watch began) during which some task waited for a CPU, 0 to 1, or null where the kernel does not say (not
 * Linux, an older kernel, pressure information turned off). It sees the whole machine, this process's work among
 * it, and nothing of another machine's (a PostgreSQL elsewhere).
 */
export function watchCpuPressure(read = readCpuStalledMicros, nowMs = () => performance.now()) {
  const reading = async (): Promise<Reading | null> => {
    const micros = await read();
    return micros === null ? null : { micros, atMs: nowMs() };
  };
  let previous = reading();
  return {
    async seen(): Promise<number | null> {
      const before = await previous;
      const now = await reading();
      previous = Promise.resolve(now);
      if (!before || !now || now.atMs <= before.atMs) return null;
      const share = (now.micros - before.micros) / 1000 / (now.atMs - before.atMs);
      return Math.min(1, Math.max(0, share));
    },
  };
}
