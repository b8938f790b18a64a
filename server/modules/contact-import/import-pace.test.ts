import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccount, createTestApp, type Session, type TestContext } from '../../test/test-app.ts';
import type { ImportEvent } from '#domain/contacts/contact-import.ts';
import { IMPORT_BATCH_ROWS, runImport } from './import.service.ts';

/**
 * An import steps back while others use the database (decision 041): with a connection of the pool in use by
 * someone else it saves one batch at a time and rests after each; alone it does not rest. Either way every row is in.
 */
let ctx: TestContext;
let owner: Session;

beforeEach(async () => {
  ctx = await createTestApp();
  owner = await createAccount(ctx, 'user');
});
afterEach(() => ctx.close());

const ROWS = 30_000;

async function importRows(
  first: number,
  rowCount = ROWS,
  on: { ctx: TestContext; owner: Session } = { ctx, owner },
): Promise<{ created: number; restMs: number; cpuStalledRests: number; events: ImportEvent[] }> {
  async function* rows() {
    for (let i = first; i < first + rowCount; i++)
      yield { row: i - first + 1, cells: [`Ann${i}`, 'Able', `ann-${i}@example.com`] };
  }
  const phases: Record<string, number> = {};
  const events: ImportEvent[] = [];
  const report = await runImport(
    on.ctx.app.ctx,
    {
      userId: on.owner.userId,
      fileName: 'rows.csv',
      format: 'csv',
      rows: rows(),
      unreadable: [],
      mapping: ['firstName', 'lastName', 'email'],
      hasHeader: false,
      duplicates: 'skip',
    },
    (event) => events.push(event),
    (logged) => Object.assign(phases, logged),
  );
  return {
    created: report.created,
    restMs: phases.restMs ?? 0,
    cpuStalledRests: phases.cpuStalledRests ?? 0,
    events,
  };
}

describe('an import beside people at work', () => {
  it('rests after its batches while another connection is in use, and not when it is alone', async () => {
    const alone = await importRows(0);
    expect(alone).toMatchObject({ created: ROWS, restMs: 0 });

    const someoneElse = await ctx.app.ctx.pool.connect();
    try {
      const beside = await importRows(ROWS);
      expect(beside.created).toBe(ROWS);
      expect(beside.restMs).toBeGreaterThan(0);
    } finally {
      someoneElse.release();
    }
  });

  it('rests longer while the machine keeps tasks waiting for a CPU, as when people wait for a connection', async () => {
    // A machine on which some task waits for a CPU half of the time (the kernel's reading grows 0.5 µs a µs).
    const crowded = await createTestApp({
      readCpuStalledMicros: () => Promise.resolve(Math.round(performance.now() * 500)),
    });
    try {
      const crowdedOwner = await createAccount(crowded, 'user');
      const on = { ctx: crowded, owner: crowdedOwner };
      const rows = 3 * IMPORT_BATCH_ROWS;
      // Alone on the crowded machine it does not step back: its own work is what crowds it.
      expect(await importRows(0, rows, on)).toMatchObject({ created: rows, restMs: 0, cpuStalledRests: 0 });

      const someoneElse = await crowded.app.ctx.pool.connect();
      try {
        const beside = await importRows(rows, rows, on);
        expect(beside.created).toBe(rows);
        expect(beside.cpuStalledRests).toBeGreaterThan(0);
      } finally {
        someoneElse.release();
      }
    } finally {
      await crowded.close();
    }
    // Where the kernel says nothing (this suite's default), nobody is counted as waiting for a CPU.
    const someoneElse = await ctx.app.ctx.pool.connect();
    try {
      expect(await importRows(0, IMPORT_BATCH_ROWS)).toMatchObject({ cpuStalledRests: 0 });
    } finally {
      someoneElse.release();
    }
  });

  it('tells how far its queueing has come after each range of rows, so a long one is never silent', async () => {
    const { events } = await importRows(0);
    const queueing = events.flatMap((e) =>
      e.type === 'progress' && e.phase === 'queueing' ? [e.queued] : [],
    );
    // Announced at 0, then after each step (two ranges of IMPORT_BATCH_ROWS rows at once on an idle database).
    const step = 2 * IMPORT_BATCH_ROWS;
    const steps = Math.ceil(ROWS / step);
    expect(queueing).toEqual([0, ...Array.from({ length: steps - 1 }, (_, i) => ((i + 1) * step) / ROWS), 1]);
    const { rows } = await ctx.db.admin.query<{ n: number }>(
      `select count(*)::int as n from queue_members m join power_dialer_queues q on q.id = m.queue_id
       where q.user_id = $1`,
      [owner.userId],
    );
    expect(rows[0]!.n).toBe(ROWS);
  });
});
