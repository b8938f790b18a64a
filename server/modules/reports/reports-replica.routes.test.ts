import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startEmbeddedPostgres,
  startEmbeddedReplica,
  type EmbeddedPostgres,
} from '../../db/embedded-postgres.ts';
import { appUrlFrom, prepareSchema } from '../../db/database.ts';
import { REPLICA_WAIT_MS } from '../../db/report-reads.ts';
import { insertContact } from '../../test/contact-factory.ts';
import { TEST_APP_PASSWORD, TEST_APP_ROLE } from '../../test/test-constants.ts';
import { adminQuery, freePort } from '../../test/test-postgres.ts';
import { asCookie, createAccount, createTestApp, type TestContext } from '../../test/test-app.ts';

/*
 * Report reads on a real streaming replica (decision 040): a primary and a hot standby of it, both embedded
 * PostgreSQL started here, the standby made from a base backup and replaying the primary's WAL as it streams.
 */
let primary: EmbeddedPostgres;
let replica: EmbeddedPostgres;
let primaryAdmin: pg.Pool;
let replicaAdmin: pg.Pool;
let appUrl: string;
let replicaAppUrl: string;
const dirs: string[] = [];

const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'callcrm-replica-test-'));
  chmodSync(dir, 0o755);
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  const primaryPort = await freePort();
  primary = await startEmbeddedPostgres({
    dataDir: tempDir(),
    port: primaryPort,
    password: 'test',
    log: () => undefined,
  });
  await adminQuery(primary.url('postgres'), 'create database callcrm');
  await prepareSchema({
    ownerUrl: primary.url('callcrm'),
    appRole: TEST_APP_ROLE,
    appPassword: TEST_APP_PASSWORD,
  });
  replica = await startEmbeddedReplica({
    primary,
    primaryPort,
    dataDir: tempDir(),
    port: await freePort(),
    password: 'test',
    log: () => undefined,
  });
  primaryAdmin = new pg.Pool({ connectionString: primary.url('callcrm'), max: 2 });
  replicaAdmin = new pg.Pool({ connectionString: replica.url('callcrm'), max: 2 });
  // The clusters stop at the end with these pools' last connections closing: nothing to report.
  for (const pool of [primaryAdmin, replicaAdmin]) pool.on('error', () => undefined);
  appUrl = appUrlFrom(primary.url('callcrm'), TEST_APP_ROLE, TEST_APP_PASSWORD);
  replicaAppUrl = appUrlFrom(replica.url('callcrm'), TEST_APP_ROLE, TEST_APP_PASSWORD);
}, 120_000);

afterAll(async () => {
  await replicaAdmin?.end();
  await primaryAdmin?.end();
  await replica?.stop();
  await primary?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** An app on the primary whose report reads go to `replicaUrl`. */
const appWithReplica = (replicaUrl: string) =>
  createTestApp({
    database: {
      name: 'callcrm',
      appUrl,
      admin: primaryAdmin,
      drop: async () => undefined,
    },
    replicaDatabaseUrl: replicaUrl,
  });

/** A call just saved on the primary, with notes a report can find. */
async function saveCall(userId: string, contactId: string, notes: string) {
  await primaryAdmin.query(
    `insert into calls (user_id, contact_id, request_id, provider, provider_call_id, from_number, to_number, status,
       notes, started_at, updated_at)
     values ($1, $2, substr(md5(random()::text), 1, 8), 'simulator', md5(random()::text), '+15550100000', '+15550100017',
       'completed', $3, now(), now())`,
    [userId, contactId, notes],
  );
}

const reportNotes = async (ctx: TestContext, headers: Record<string, string>, search: string) => {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/call-reports?search=${encodeURIComponent(search)}`,
    headers,
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ reports: { notes: string | null }[] }>().reports.map((r) => r.notes);
};

describe('report reads on a streaming replica', () => {
  it('go to the replica, which is a standby, and still show a call saved a moment before', async () => {
    const standby = await replicaAdmin.query<{ standby: boolean }>('select pg_is_in_recovery() as standby');
    expect(standby.rows[0]!.standby).toBe(true);
    const ctx = await appWithReplica(replicaAppUrl);
    try {
      const rep = await createAccount(ctx, 'user');
      const ann = await insertContact(ctx.app, rep, { firstName: 'Ann' });
      const served = ctx.app.ctx.reportReads.served;
      await saveCall(rep.userId, ann.id, 'asked for the replica price list');

      expect(await reportNotes(ctx, asCookie(rep), 'replica price')).toEqual([
        'asked for the replica price list',
      ]);
      const overview = await ctx.app.inject({
        method: 'GET',
        url: '/api/reports/overview?day=2026-11-21&tz=UTC',
        headers: asCookie(rep),
      });
      expect(overview.statusCode).toBe(200);
      const csv = await ctx.app.inject({
        method: 'GET',
        url: '/api/call-reports/export',
        headers: asCookie(rep),
      });
      expect(csv.statusCode).toBe(200);
      expect(csv.body).toContain('asked for the replica price list');
      expect(served).toEqual({ replica: 3, primary: 0 });

      // Row security holds on the replica as on the primary: another rep sees none of it.
      const other = await createAccount(ctx, 'user');
      expect(await reportNotes(ctx, asCookie(other), 'replica price')).toEqual([]);
    } finally {
      await ctx.close();
    }
  }, 60_000);

  it('a replica that stops replaying is left for the primary after the wait, and used again once it catches up', async () => {
    const ctx = await appWithReplica(replicaAppUrl);
    try {
      const rep = await createAccount(ctx, 'user');
      const bo = await insertContact(ctx.app, rep, { firstName: 'Bo' });
      const served = ctx.app.ctx.reportReads.served;
      await replicaAdmin.query('select pg_wal_replay_pause()');
      try {
        await saveCall(rep.userId, bo.id, 'saved while the replica was paused');
        const started = Date.now();
        expect(await reportNotes(ctx, asCookie(rep), 'replica was paused')).toEqual([
          'saved while the replica was paused',
        ]);
        expect(Date.now() - started).toBeGreaterThanOrEqual(REPLICA_WAIT_MS);
        expect(served).toEqual({ replica: 0, primary: 1 });
      } finally {
        await replicaAdmin.query('select pg_wal_replay_resume()');
      }
      expect(await reportNotes(ctx, asCookie(rep), 'replica was paused')).toHaveLength(1);
      expect(served).toEqual({ replica: 1, primary: 1 });
    } finally {
      await ctx.close();
    }
  }, 60_000);

  it('a replica nobody answers at, or a URL that is no standby, leaves every report on the primary', async () => {
    const deadPort = await freePort();
    for (const url of [
      appUrlFrom(`postgres://127.0.0.1:${deadPort}/callcrm`, TEST_APP_ROLE, TEST_APP_PASSWORD),
      appUrl,
    ]) {
      const ctx = await appWithReplica(url);
      try {
        const rep = await createAccount(ctx, 'user');
        const cy = await insertContact(ctx.app, rep, { firstName: 'Cy' });
        await saveCall(rep.userId, cy.id, 'no replica to read from');
        expect(await reportNotes(ctx, asCookie(rep), 'no replica')).toEqual(['no replica to read from']);
        expect(await reportNotes(ctx, asCookie(rep), 'no replica')).toHaveLength(1);
        expect(ctx.app.ctx.reportReads.served).toEqual({ replica: 0, primary: 2 });
      } finally {
        await ctx.close();
      }
    }
  }, 60_000);
});
