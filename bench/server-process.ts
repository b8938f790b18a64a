import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SlowRequestReport } from '../server/process/slow-request-trace.ts';
import { startServerProcess as startProduct } from '../server/test/server-process.ts';

export type ServerProcess = {
  base: string;
  pid: number;
  /** The server's resident memory now, in MB (from /proc). */
  rssMb: () => number;
  /** Waits over 50 ms for a pooled database connection the server reported so far (its log, every 10 s). */
  poolWaits: { count: number; longestMs: number; opening: number };
  /** The 10 s windows in which the server's event loop was held over 50 ms (its log), and the longest hold. */
  loopHolds: { windows: number; longestMs: number };
  /** With LOG_LEVEL=info: each request's time as the server measured it, by method and path (ids as :id). */
  serverTimes: Map<string, number[]>;
  /** With BENCH_SLOW_LOG_MS: the requests the server logged as slow, with where their time went. */
  slowRequests: SlowRequestReport[];
  stop: () => Promise<void>;
};

/**
 * The product as its own process (node server/main.ts) on the benchmark's database, so its memory can be read
 * apart from the benchmark's own (imports and exports promise flat server memory). The server's own account of
 * long operations (import phases) is printed beside the figures.
 */
export async function startServerProcess(
  ownerUrl: string,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'callcrm-bench-'));
  const server = await startProduct(
    {
      NODE_ENV: 'production',
      PUBLIC_URL: 'http://localhost:3000',
      DATABASE_URL: ownerUrl,
      DATA_DIR: dataDir,
      SESSION_SECRET: 'bench-session-secret-long-enough-0123456789',
      LOG_LEVEL: 'info',
      IMPORT_MAX_MB: '1000',
      ...(process.env.BENCH_SLOW_LOG_MS && { SLOW_REQUEST_LOG_MS: process.env.BENCH_SLOW_LOG_MS }),
      ...env,
    },
    process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
  );
  const poolWaits = { count: 0, longestMs: 0, opening: 0 };
  const loopHolds = { windows: 0, longestMs: 0 };
  const serverTimes = new Map<string, number[]>();
  const slowRequests: SlowRequestReport[] = [];
  const requests = new Map<string, string>();
  let partial = '';
  // A server that dies under the benchmark says why: its last error lines and what it wrote to stderr.
  let stopping = false;
  const lastErrors: string[] = [];
  let stderrTail = '';
  server.child.stderr?.on('data', (c: Buffer) => (stderrTail = (stderrTail + c.toString()).slice(-4000)));
  server.child.once('exit', (code, signal) => {
    if (!stopping)
      console.error(
        `server ${server.child.pid} exited unexpectedly (code ${code}, signal ${signal})\n${lastErrors.join('\n')}\n${stderrTail}`,
      );
  });
  server.child.stdout?.on('data', (c: Buffer) => {
    const lines = (partial + c.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (/"level":(50|60)/.test(line))
        lastErrors.splice(0, Math.max(0, lastErrors.length - 9), line.slice(0, 2000));
      if (line.includes('"import finished"')) console.error(line);
      if (line.includes('"incoming request"')) {
        const { reqId, req } = JSON.parse(line) as { reqId: string; req: { method: string; url: string } };
        const path = req.url.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, ':id').replace(/\?.*$/, '');
        requests.set(reqId, `${req.method} ${path}`);
      }
      if (line.includes('"request completed"')) {
        const { reqId, responseTime } = JSON.parse(line) as { reqId: string; responseTime: number };
        const key = requests.get(reqId);
        requests.delete(reqId);
        if (key && !serverTimes.has(key)) serverTimes.set(key, []);
        if (key) serverTimes.get(key)!.push(responseTime);
      }
      if (line.includes('"slowRequest"'))
        slowRequests.push((JSON.parse(line) as { slowRequest: SlowRequestReport }).slowRequest);
      if (line.includes('"The event loop was held')) {
        const { maxMs } = JSON.parse(line) as { maxMs: number };
        loopHolds.windows += 1;
        loopHolds.longestMs = Math.max(loopHolds.longestMs, Math.round(maxMs * 10) / 10);
      }
      if (!line.includes('for a database connection')) continue;
      const reported = JSON.parse(line) as { count: number; longestMs: number; opening?: number };
      poolWaits.count += reported.count;
      poolWaits.opening += reported.opening ?? 0;
      poolWaits.longestMs = Math.max(poolWaits.longestMs, reported.longestMs);
    }
  });
  return {
    base: server.base,
    pid: server.child.pid!,
    poolWaits,
    loopHolds,
    serverTimes,
    slowRequests,
    rssMb: () => {
      // 0 once the process is gone (it died: said above), rather than failing the sampler.
      try {
        const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
        return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
      } catch {
        return 0;
      }
    },
    stop: async () => {
      stopping = true;
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs up (the first account of a fresh database is an approved admin) and returns the session cookie. */
export async function signUpFirst(base: string, email: string): Promise<{ cookie: string; userId: string }> {
  const response = await fetch(`${base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
    body: JSON.stringify({ email, password: 'bench password 123', name: '' }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { cookie, userId: ((await response.json()) as { user: { id: string } }).user.id };
}
