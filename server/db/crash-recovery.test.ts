import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/test-postgres.ts';

/** The product as a person runs it (`node server/main.ts`, embedded PostgreSQL in DATA_DIR), killed without warning. */
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'callcrm-crash-'));
chmodSync(dataDir, 0o755);
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  // Stop the embedded PostgreSQL the last server left behind, through a clean start-and-stop.
  const last = await startServer();
  last.child.kill('SIGTERM');
  await new Promise((r) => last.child.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
});

async function startServer(): Promise<{ child: ChildProcess; base: string }> {
  const [port, pgPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
    stdio: 'ignore',
  });
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (
      await fetch(`${base}/api/health`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      return { child, base };
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

const post = (base: string, p: string, body: object) =>
  fetch(`${base}${p}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify(body),
  });

describe('crash recovery of the embedded database', () => {
  it('keeps every account after kill -9 of the server, and starts again on the same data', async () => {
    const first = await startServer();
    expect(
      (
        await post(first.base, '/api/auth/sign-up/email', {
          email: 'survivor@example.com',
          password: 'survive 12345',
          name: '',
        })
      ).status,
    ).toBe(200);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const second = await startServer();
    const signIn = await post(second.base, '/api/auth/sign-in/email', {
      email: 'survivor@example.com',
      password: 'survive 12345',
    });
    expect(signIn.status).toBe(200);
    second.child.kill('SIGKILL');
    await new Promise((r) => second.child.once('exit', r));
  }, 120_000);
});
