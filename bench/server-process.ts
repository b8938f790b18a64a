import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../server/test/test-postgres.ts';

export type ServerProcess = {
  base: string;
  /** The server's resident memory now, in MB (from /proc). */
  rssMb: () => number;
  stop: () => Promise<void>;
};

/**
 * The product as its own process (node server/main.ts) on the benchmark's database, so its memory can be read
 * apart from the benchmark's own (imports and exports promise flat server memory).
 */
export async function startServerProcess(
  ownerUrl: string,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'callcrm-bench-'));
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: 'http://localhost:3000',
      DATABASE_URL: ownerUrl,
      DATA_DIR: dataDir,
      SESSION_SECRET: 'bench-session-secret-long-enough-0123456789',
      LOG_LEVEL: 'info',
      IMPORT_MAX_MB: '1000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  // The server's own account of long operations (import phases) is worth seeing beside the figures.
  child.stdout?.on('data', (c: Buffer) => {
    for (const line of c.toString().split('\n')) if (line.includes('"import finished"')) console.error(line);
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    if (Date.now() > deadline) throw new Error(`server did not start: ${stderr}`);
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    rssMb: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    },
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
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
