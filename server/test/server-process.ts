import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './test-postgres.ts';

export type ServerProcess = {
  child: ChildProcess;
  base: string;
  /** JSON log lines the server printed at warn level or above. */
  warnings: () => string[];
  /** SIGTERM, and waits for the process to exit. */
  stop: () => Promise<number | null>;
  /** kill -9 of the whole process group, as a crash or the OOM killer would. */
  kill: () => Promise<void>;
};

/**
 * The product as a person runs it (`node server/main.ts`), with the environment given, in its own process group;
 * resolves once its health check answers 200. `nodeArgs` go to node itself (a CPU profile: --cpu-prof, which NODE_OPTIONS
 * does not take).
 */
export async function startServerProcess(
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const lines: string[] = [];
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => lines.push(...c.toString().split('\n').filter(Boolean)));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited: ${stderr}`);
    if (Date.now() > deadline) throw new Error(`server did not start: ${stderr}`);
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    child,
    base,
    warnings: () => [...lines],
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
      await exited;
    },
  };
}
