import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../db/embedded-postgres.ts';
import { prepareSchema } from '../db/database.ts';
import { TEST_APP_PASSWORD, TEST_APP_ROLE } from './test-constants.ts';

export type TestPostgres = { adminUrl: string; template: string; stop: () => Promise<void> };

/**
 * A real PostgreSQL for a test run: TEST_DATABASE_URL's server (a superuser URL), or an embedded one in a temp
 * directory; plus a migrated template database that each test copies.
 */
export async function startTestPostgres(templateName: string): Promise<TestPostgres> {
  let embedded: EmbeddedPostgres | null = null;
  let dir: string | null = null;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    dir = mkdtempSync(path.join(os.tmpdir(), 'callcrm-test-pg-'));
    // mkdtemp makes it 0700; as root, PostgreSQL runs as `postgres` and must reach the cluster inside.
    chmodSync(dir, 0o755);
    embedded = await startEmbeddedPostgres({
      dataDir: dir,
      port: await freePort(),
      password: 'test',
      log: () => undefined,
    });
    adminUrl = embedded.url('postgres');
  }
  await adminQuery(adminUrl, `drop database if exists ${templateName} with (force)`);
  await adminQuery(adminUrl, `create database ${templateName}`);
  await prepareSchema({
    ownerUrl: withDatabase(adminUrl, templateName),
    appRole: TEST_APP_ROLE,
    appPassword: TEST_APP_PASSWORD,
  });
  const url = adminUrl;
  return {
    adminUrl: url,
    template: templateName,
    stop: async () => {
      await adminQuery(url, `drop database if exists ${templateName} with (force)`).catch(() => undefined);
      await embedded?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function adminQuery(url: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
