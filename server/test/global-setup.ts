import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../db/embedded-postgres.ts';
import { prepareSchema } from '../db/database.ts';
import { TEST_APP_PASSWORD, TEST_APP_ROLE } from './test-constants.ts';

// Module augmentation needs interfaces (declaration merging).
/* eslint-disable @typescript-eslint/consistent-type-definitions */
declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    templateDatabase: string;
  }
}

/**
 * One real PostgreSQL for the whole run: TEST_DATABASE_URL's server (a superuser URL), or an embedded one in a temp
 * directory. A template database is migrated once; every test file copies it (server/test/test-database.ts).
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedPostgres | null = null;
  let dir: string | null = null;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    dir = mkdtempSync(path.join(os.tmpdir(), 'callcrm-test-pg-'));
    embedded = await startEmbeddedPostgres({ dataDir: dir, port: await freePort(), password: 'test', log: () => undefined });
    adminUrl = embedded.url('postgres');
  }
  const template = `callcrm_template_${process.pid}`;
  await adminQuery(adminUrl, `drop database if exists ${template}`);
  await adminQuery(adminUrl, `create database ${template}`);
  const templateUrl = withDatabase(adminUrl, template);
  await prepareSchema({ ownerUrl: templateUrl, appRole: TEST_APP_ROLE, appPassword: TEST_APP_PASSWORD });
  project.provide('pgAdminUrl', adminUrl);
  project.provide('templateDatabase', template);

  return async () => {
    await adminQuery(adminUrl, `drop database if exists ${template} with (force)`).catch(() => undefined);
    await embedded?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
