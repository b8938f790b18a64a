import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/test-postgres.ts';
import { startEmbeddedPostgres } from './embedded-postgres.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function dataDir(...deeper: string[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'callcrm-embedded-'));
  chmodSync(dir, 0o755);
  dirs.push(dir);
  const inside = path.join(dir, ...deeper);
  mkdirSync(inside, { recursive: true, mode: 0o755 });
  return inside;
}

async function clientAddress(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ at: string | null }>('select inet_client_addr()::text as at')).rows[0]!.at;
  } finally {
    await client.end();
  }
}

describe('the embedded PostgreSQL', () => {
  it("takes the server's own connections over a Unix socket only its user reaches, and others over TCP", async () => {
    const port = await freePort();
    const embedded = await startEmbeddedPostgres({
      dataDir: dataDir(),
      port,
      password: 's3cret',
      log: () => {},
    });
    try {
      const url = new URL(embedded.url('postgres'));
      const socketDir = url.searchParams.get('host')!;
      expect(socketDir).toBe(`${embedded.clusterDir}.sock`);
      expect(statSync(socketDir).mode & 0o777).toBe(0o700);
      // A Unix-socket connection has no client address.
      expect(await clientAddress(url.toString())).toBeNull();
      // Another instance on this database (DATABASE_URL) reaches it over TCP, with the same password.
      expect(await clientAddress(`postgres://postgres:s3cret@127.0.0.1:${port}/postgres`)).toBe(
        '127.0.0.1/32',
      );
      await expect(
        clientAddress(`postgres://postgres:wrong@/postgres?host=${socketDir}&port=${port}`),
      ).rejects.toThrow(/password authentication failed/);
    } finally {
      await embedded.stop();
    }
  });

  it('keeps to TCP when the socket path would be longer than a socket address holds', async () => {
    const deep = dataDir('a-directory-name-long-enough'.repeat(3), 'to-push-the-socket-path-past-its-limit');
    const port = await freePort();
    const embedded = await startEmbeddedPostgres({ dataDir: deep, port, password: 'pw', log: () => {} });
    try {
      expect(new URL(embedded.url('postgres')).searchParams.has('host')).toBe(false);
      expect(await clientAddress(embedded.url('postgres'))).toBe('127.0.0.1/32');
    } finally {
      await embedded.stop();
    }
  });
});
