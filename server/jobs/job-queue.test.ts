import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withActor } from '../db/database.ts';
import { recoverAbandonedWork } from '../instance/janitor.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';
import { enqueueJob } from './enqueue-job.ts';

/** The job queue as the product uses it (docs/decisions/016-job-queue.md), on real PostgreSQL. */
let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(() => ctx.close());

const jobsFor = async (key: string) =>
  (
    await ctx.db.admin.query<{ n: number }>(
      `select count(*)::int as n from graphile_worker._private_jobs where key = $1`,
      [key],
    )
  ).rows[0]!.n;
const waitFor = async (check: () => Promise<boolean>, ms = 5000) => {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('job queue', () => {
  it('adds a job only when the work that asked for it commits, and keeps one waiting job per key', async () => {
    const later = new Date(Date.now() + 3600_000);
    await expect(
      withActor(ctx.app.ctx.db, { kind: 'system' }, async (trx) => {
        await enqueueJob(
          trx,
          'bulk-call-step',
          { jobId: randomUUID() },
          { jobKey: 'rolled-back', runAt: later },
        );
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    expect(await jobsFor('rolled-back')).toBe(0);

    for (let i = 0; i < 3; i++)
      await withActor(ctx.app.ctx.db, { kind: 'system' }, (trx) =>
        enqueueJob(trx, 'bulk-call-step', { jobId: randomUUID() }, { jobKey: 'once', runAt: later }),
      );
    expect(await jobsFor('once')).toBe(1);
  });

  it("frees a job a dead instance held, and another instance's workers then run it", async () => {
    // A job locked by the workers of an instance that is registered but no longer running (it holds no presence
    // lock), as after a kill -9 mid-job.
    const deadInstance = randomUUID();
    await ctx.db.admin.query(
      `insert into server_instances (id, hostname, pid, started_at, last_seen_at, job_pool_id)
       values ($1, 'gone', 1, now(), now(), 'pool-of-the-dead')`,
      [deadInstance],
    );
    await ctx.db.admin.query(
      `select graphile_worker.add_job('bulk-call-step', json_build_object('jobId', $1::text), job_key => 'held',
         run_at => now() + interval '1 hour')`,
      [randomUUID()],
    );
    await ctx.db.admin.query(
      `update graphile_worker._private_jobs set locked_by = 'pool-of-the-dead', locked_at = now(), run_at = now()
       where key = 'held'`,
    );
    // Locked jobs are left alone by the running workers…
    await new Promise((r) => setTimeout(r, 300));
    expect(await jobsFor('held')).toBe(1);
    // …until the janitor finds their instance dead and frees them; then they run (and, done, leave the queue).
    const report = await recoverAbandonedWork(ctx.app.ctx);
    expect(report.jobs).toBe(1);
    await waitFor(async () => (await jobsFor('held')) === 0);
  });

  it('forgets named job queues once they hold no job, and keeps those that do', async () => {
    await ctx.db.admin.query(
      `select graphile_worker.add_job('bulk-call-step', json_build_object('jobId', $1::text), queue_name => 'busy',
         run_at => now() + interval '1 hour')`,
      [randomUUID()],
    );
    await ctx.db.admin.query(`insert into graphile_worker._private_job_queues (queue_name) values ('idle')`);
    await recoverAbandonedWork(ctx.app.ctx);
    const left = await ctx.db.admin.query<{ queue_name: string }>(
      `select queue_name from graphile_worker._private_job_queues order by queue_name`,
    );
    expect(left.rows.map((r) => r.queue_name)).toEqual(['busy']);
  });

  it("leaves a live instance's jobs locked", async () => {
    await ctx.db.admin.query(
      `select graphile_worker.add_job('bulk-call-step', json_build_object('jobId', $1::text), job_key => 'mine',
         run_at => now() + interval '1 hour')`,
      [randomUUID()],
    );
    const pool = await ctx.db.admin.query<{ job_pool_id: string }>(
      `select job_pool_id from server_instances where id = $1`,
      [ctx.app.ctx.instanceId],
    );
    expect(pool.rows[0]?.job_pool_id).toMatch(/^pool-/);
    await ctx.db.admin.query(
      `update graphile_worker._private_jobs set locked_by = $1, locked_at = now() where key = 'mine'`,
      [pool.rows[0]!.job_pool_id],
    );
    expect((await recoverAbandonedWork(ctx.app.ctx)).jobs).toBe(0);
    const locked = await ctx.db.admin.query(
      `select locked_by from graphile_worker._private_jobs where key = 'mine'`,
    );
    expect(locked.rows[0].locked_by).toBe(pool.rows[0]!.job_pool_id);
  });
});
