import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { appUrlFrom } from '../db/database.ts';
import { withDatabase } from './test-postgres.ts';
import { TEST_APP_PASSWORD, TEST_APP_ROLE } from './test-constants.ts';

export type TestDatabase = {
  name: string;
  /** The application role's URL (not superuser, not owner): what the server under test uses. */
  appUrl: string;
  /** A superuser connection for arranging data and inspecting results; bypasses row-level security. */
  admin: pg.Pool;
  drop: () => Promise<void>;
};

/** A fresh copy of the migrated template database: tests never share rows and never depend on order. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('pgAdminUrl');
  const template = inject('templateDatabase');
  const name = `callcrm_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`create database ${name} template ${template}`);
  await client.end();
  const dbUrl = withDatabase(adminUrl, name);
  const admin = new pg.Pool({ connectionString: dbUrl, max: 3 });
  // `drop database ... with (force)` ends every session still open on the database; a client of this pool still
  // closing at that moment reports it (57P01). The test is over by then: that report is expected, not a failure.
  admin.on('error', (error: Error & { code?: string }) => {
    if (error.code !== '57P01') throw error;
  });
  return {
    name,
    appUrl: appUrlFrom(dbUrl, TEST_APP_ROLE, TEST_APP_PASSWORD),
    admin,
    drop: async () => {
      await admin.end();
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
