import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccount, createTestApp, type Session, type TestContext } from '../../test/test-app.ts';
import { TEST_ORIGIN } from '../../test/test-constants.ts';

/**
 * Uploads that a client abandons (a closed tab, a dropped network) or lets stall, against a real listening server:
 * each must give back what it holds, end as failed with what it really saved, and leave the server answering.
 */
let ctx: TestContext;
let owner: Session;
let port: number;

beforeEach(async () => {
  ctx = await createTestApp({ closeGraceMs: 300 });
  owner = await createAccount(ctx, 'user');
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as AddressInfo).port;
});
afterEach(() => ctx.close());

const MAPPING = JSON.stringify(['firstName', 'lastName', 'phone', 'email', 'company']);
const rows = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `Ann${from + i},Able,,ann-${from + i}@example.com,Able Inc\n`).join(
    '',
  );

/** Starts an import upload announcing `declaredBytes`; the caller writes to it, and may cut it off. */
function startUpload(declaredBytes: number, as: Session = owner) {
  const query = new URLSearchParams({
    fileName: 'big.csv',
    header: 'true',
    duplicates: 'skip',
    mapping: MAPPING,
  });
  const request = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: `/api/contacts/imports?${query.toString()}`,
    headers: {
      cookie: as.cookie,
      origin: TEST_ORIGIN,
      'content-type': 'application/octet-stream',
      'content-length': String(declaredBytes),
    },
  });
  request.on('error', () => undefined);
  request.on('response', (response) => response.resume().on('error', () => undefined));
  request.write('First Name,Last Name,Phone,Email,Company\n');
  return request;
}

const poolInUse = () => ctx.app.ctx.pool.totalCount - ctx.app.ctx.pool.idleCount;
const imports = async () =>
  (
    await ctx.db.admin.query<{ status: string; created: number; error: string | null }>(
      'select status, created, error from contact_imports',
    )
  ).rows;
const contactCount = async () =>
  (await ctx.db.admin.query('select count(*)::int as n from contacts')).rows[0].n as number;
const waitUntil = async (done: () => Promise<boolean>, ms = 15_000) => {
  const until = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('an upload cut off midway', () => {
  it('gives back its connections: six abandoned imports (more than the pool) leave the server fully answering', async () => {
    const pending = [];
    for (let i = 0; i < 6; i++) {
      // Six people closing their tabs (an account runs one import at a time).
      const upload = startUpload(50 * 1024 * 1024, await createAccount(ctx, 'user'));
      // 12,000 rows: more than one batch is read and saved before the client goes away.
      upload.write(rows(i * 100_000, 12_000));
      pending.push(upload);
    }
    await waitUntil(async () => (await contactCount()) >= 6 * 10_000, 40_000);
    for (const upload of pending) upload.destroy();
    await waitUntil(async () => (await imports()).every((r) => r.status === 'failed'));
    const ended = await imports();
    expect(ended).toHaveLength(6);
    // Each says what it really saved, and that count is in the database.
    expect(ended.reduce((sum, r) => sum + r.created, 0)).toBe(await contactCount());
    for (const record of ended) expect(record.error).toMatch(/cut off|stopped after saving/);
    await waitUntil(async () => poolInUse() === 0);
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(health.status).toBe(200);
    const list = await fetch(`http://127.0.0.1:${port}/api/contacts`, { headers: { cookie: owner.cookie } });
    expect(list.status).toBe(200);
    // The contacts saved joined the default queue, as a finished import's do.
    const queued = await ctx.db.admin.query(`select count(*)::int as n from queue_members`);
    expect(queued.rows[0].n).toBe(await contactCount());
  }, 60_000);

  it('holds no connection while the file is still arriving', async () => {
    const upload = startUpload(10 * 1024 * 1024);
    upload.write(rows(0, 100));
    // The import's short start-up transactions may still run under load; after them none is held while the rest of
    // the file is awaited: a connection held for the upload would keep the count from ever coming back to zero.
    await new Promise((r) => setTimeout(r, 300));
    await waitUntil(async () => poolInUse() === 0, 5000);
    expect((await imports()).map((r) => r.status)).toEqual(['running']);
    upload.destroy();
    await waitUntil(async () => (await imports()).every((r) => r.status === 'failed'));
  });
});

describe('health and shutdown', () => {
  it('says unhealthy, within seconds, when every pooled connection is held', async () => {
    const held = await Promise.all(Array.from({ length: 5 }, () => ctx.app.ctx.pool.connect()));
    const started = Date.now();
    const exhausted = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(exhausted.status).toBe(503);
    expect(await exhausted.json()).toMatchObject({ status: 'unavailable', reason: 'pool-exhausted' });
    expect(Date.now() - started).toBeLessThan(5000);
    for (const client of held) client.release();
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
  });

  it('closes in bounded time with an event stream open and an upload stalled, and the import ends failed', async () => {
    const events = await fetch(`http://127.0.0.1:${port}/api/events`, { headers: { cookie: owner.cookie } });
    expect(events.status).toBe(200);
    const upload = startUpload(10 * 1024 * 1024);
    upload.write(rows(0, 12_000));
    await waitUntil(async () => (await contactCount()) >= 10_000);
    const started = Date.now();
    await ctx.app.close();
    expect(Date.now() - started).toBeLessThan(5000);
    const [record] = await imports();
    expect(record?.status).toBe('failed');
    expect(record?.created).toBe(await contactCount());
  });
});
