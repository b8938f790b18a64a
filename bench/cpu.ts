import { readdirSync, readFileSync } from 'node:fs';

/** A process's CPU time so far, in seconds (user + system, from /proc); with `children`, also its waited-for children's. */
export function cpuSeconds(pid: number, children = false): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const own = Number(fields[11]) + Number(fields[12]);
  return (children ? own + Number(fields[13]) + Number(fields[14]) : own) / 100;
}

/**
 * PostgreSQL's CPU time so far: the postmaster's, the backends that ended (its children's, as the kernel counts
 * them once waited for) and those alive now.
 */
export function postgresCpuSeconds(postmaster: number): number {
  let total = cpuSeconds(postmaster, true);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.split(') ')[1]!.split(' ')[1]) === postmaster) total += cpuSeconds(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return total;
}

/** The machine's busy and total CPU time so far (from /proc/stat). */
export function machineTimes(): { busy: number; total: number } {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number);
  const idle = cpu[3]! + cpu[4]!;
  const total = cpu.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/**
 * Pressure stall totals so far (/proc/pressure, µs): how long some task waited for a CPU, for I/O, for memory. Their
 * growth over a phase, divided by its length, says which resource work queued for.
 */
export function pressureTotals(): { cpu: number; io: number; memory: number } {
  const some = (resource: string) => {
    try {
      const line = readFileSync(`/proc/pressure/${resource}`, 'utf8').split('\n')[0]!;
      return Number(/total=(\d+)/.exec(line)?.[1] ?? Number.NaN);
    } catch {
      return Number.NaN; // a kernel without pressure stall information
    }
  };
  return { cpu: some('cpu'), io: some('io'), memory: some('memory') };
}
