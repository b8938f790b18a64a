import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServerProcess as startProduct } from '../server/test/server-process.ts';

export type ServerProcess = {
  base: string;
  pid: number;
  /** The server's resident memory now, in MB (from /proc). */
  rssMb: () => number;
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
      ...env,
    },
    process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
  );
  server.child.stdout?.on('data', (c: Buffer) => {
    for (const line of c.toString().split('\n')) if (line.includes('"import finished"')) console.error(line);
  });
  return {
    base: server.base,
    pid: server.child.pid!,
    rssMb: () => {
      const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    },
    stop: async () => {
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
