import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';

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

/** PostgreSQL's main process, whose children are every backend. */
export async function postmasterPid(owner: pg.Pool): Promise<number> {
  const { rows } = await owner.query<{ pid: number }>('select pg_backend_pid() as pid');
  const status = readFileSync(`/proc/${rows[0]!.pid}/status`, 'utf8');
  return Number(/PPid:\s+(\d+)/.exec(status)![1]);
}

/**
 * Starts counting the CPU a phase takes: the server processes', PostgreSQL's, the benchmark's own and the machine's.
 * `finish` answers each in cores (CPU seconds per second of the phase) and the machine's busy share.
 */
export function countPhaseCpu(serverPids: readonly number[], postmaster: number) {
  const servers = () => serverPids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const started = Date.now();
  const before = { servers: servers(), postgres: postgresCpuSeconds(postmaster), machine: machineTimes() };
  const bench = process.cpuUsage();
  return {
    finish() {
      const elapsed = (Date.now() - started) / 1000;
      const machine = machineTimes();
      const own = process.cpuUsage(bench);
      return {
        server: (servers() - before.servers) / elapsed,
        postgres: (postgresCpuSeconds(postmaster) - before.postgres) / elapsed,
        bench: (own.user + own.system) / 1e6 / elapsed,
        machineBusy: (machine.busy - before.machine.busy) / (machine.total - before.machine.total),
      };
    },
  };
}

export const cpuLine = (c: ReturnType<ReturnType<typeof countPhaseCpu>['finish']>) =>
  `CPU cores: server ${c.server.toFixed(2)} / PostgreSQL ${c.postgres.toFixed(2)} / benchmark ${c.bench.toFixed(2)}; machine ${(100 * c.machineBusy).toFixed(0)} % busy`;
