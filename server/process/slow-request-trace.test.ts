import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/test-database.ts';
import { traceSlowRequests, type SlowRequestReport } from './slow-request-trace.ts';

let database: TestDatabase;
let pool: pg.Pool;
const reports: SlowRequestReport[] = [];
const app = Fastify();

const hold = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

beforeAll(async () => {
  database = await createTestDatabase();
  pool = new pg.Pool({ connectionString: database.appUrl, max: 1 });
  traceSlowRequests(app, [pool], 40, (slow) => reports.push(slow));
  app.get('/quick', async () => ({ ok: true }));
  app.get('/slow-statement/:id', async () => {
    await pool.query('select pg_sleep(0.06)');
    await pool.query('select 1');
    return { ok: true };
  });
  app.get('/busy-server', async () => {
    await pool.query('select 1');
    hold(60);
    return { ok: true };
  });
  app.get('/held-connection', async () => {
    const client = await pool.connect();
    client.release();
    return { ok: true };
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await pool.end();
  await database.drop();
});

const lastReportOf = (route: string) => reports.filter((r) => r.route === route).at(-1);

describe('slow requests are logged with where their time went', () => {
  it('says nothing of a quick request', async () => {
    expect((await app.inject({ url: '/quick' })).statusCode).toBe(200);
    expect(lastReportOf('/quick')).toBeUndefined();
  });

  it('puts a slow statement under statements, with its text, on the route (not the path)', async () => {
    expect((await app.inject({ url: '/slow-statement/123' })).statusCode).toBe(200);
    const report = lastReportOf('/slow-statement/:id')!;
    expect(report).toMatchObject({ method: 'GET', statusCode: 200, statements: 2 });
    expect(report.statementMs).toBeGreaterThanOrEqual(55);
    expect(report.statementMs).toBeLessThanOrEqual(report.totalMs);
    expect(report.slowest[0]).toMatch(/^\d+ ms select pg_sleep\(0\.06\)$/);
    // The server only waited for PostgreSQL: its event loop was free most of the time.
    expect(report.loopBusy).toBeLessThan(0.5);
  });

  it("puts the server's own work under server", async () => {
    await app.inject({ url: '/busy-server' });
    const report = lastReportOf('/busy-server')!;
    expect(report.serverMs).toBeGreaterThanOrEqual(55);
    expect(report.statements).toBe(1);
    expect(report.loopBusy).toBeGreaterThan(0.5);
  });

  it('puts a wait for the only connection under connection', async () => {
    const held = await pool.connect();
    const request = app.inject({ url: '/held-connection' });
    await new Promise((r) => setTimeout(r, 80));
    held.release();
    expect((await request).statusCode).toBe(200);
    const report = lastReportOf('/held-connection')!;
    expect(report.connectionMs).toBeGreaterThanOrEqual(70);
    expect(report.statements).toBe(0);
  });

  it('does not count statements run outside any request', async () => {
    const before = reports.length;
    await pool.query('select pg_sleep(0.05)');
    expect(reports.length).toBe(before);
  });
});
