import { sql } from 'kysely';
import type { ServerInstance } from '#domain/admin/server-instances.ts';
import type { DbExecutor } from '../db/database.ts';
import { PRESENCE_KEY_PREFIX, presenceKeyText } from './instance-connection.ts';

/** Records a starting instance, for operators (Admin → Diagnostics) and for tidying up after it. */
export async function registerInstance(
  db: DbExecutor,
  instance: { id: string; hostname: string; pid: number },
  now: Date,
): Promise<void> {
  await db
    .insertInto('server_instances')
    .values({ ...instance, hostname: instance.hostname.slice(0, 255), started_at: now, last_seen_at: now })
    .onConflict((oc) => oc.column('id').doUpdateSet({ last_seen_at: now }))
    .execute();
}

export async function touchInstance(db: DbExecutor, id: string, now: Date): Promise<void> {
  await db.updateTable('server_instances').set({ last_seen_at: now }).where('id', '=', id).execute();
}

/**
 * Whether the instance is running: its own connection holds its presence lock, exclusively (instance-connection.ts).
 * Trying the lock shared for the length of the transaction fails only while that holder has it; shared, so that
 * any number of instances and requests asking at once about a stopped instance all see it stopped (an exclusive
 * try would succeed for one of them and fail for the others, who would take the instance for running).
 */
export async function isInstanceAlive(db: DbExecutor, id: string): Promise<boolean> {
  const result = await sql<{ free: boolean }>`
    select pg_try_advisory_xact_lock_shared(hashtextextended(${presenceKeyText(id)}, 0)) as free`.execute(db);
  return result.rows[0]?.free === false;
}

/**
 * Every instance recorded (the last week's, newest first, at most `limit`): whether it runs background jobs, and
 * whether it is running now, read from its presence lock as isInstanceAlive does (a lock found free is held,
 * shared, only until this transaction ends).
 */
export async function listInstances(db: DbExecutor, limit = 50): Promise<ServerInstance[]> {
  const result = await sql<{
    id: string;
    hostname: string;
    pid: number;
    started_at: Date;
    last_seen_at: Date;
    runs_jobs: boolean;
    running: boolean;
  }>`
    select id, hostname, pid, started_at, last_seen_at, job_pool_id is not null as runs_jobs,
      not pg_try_advisory_xact_lock_shared(hashtextextended(${PRESENCE_KEY_PREFIX} || id::text, 0)) as running
    from server_instances
    order by started_at desc, id
    limit ${limit}`.execute(db);
  return result.rows.map((row) => ({
    id: row.id,
    hostname: row.hostname,
    pid: row.pid,
    startedAt: row.started_at.toISOString(),
    lastSeenAt: row.last_seen_at.toISOString(),
    runsBackgroundJobs: row.runs_jobs,
    running: row.running,
  }));
}

/** Instances unseen for a week are gone: their rows are removed (their work was closed long before). */
export async function pruneInstances(db: DbExecutor, now: Date): Promise<void> {
  await db
    .deleteFrom('server_instances')
    .where('last_seen_at', '<', new Date(now.getTime() - 7 * 24 * 3600 * 1000))
    .execute();
}

/** The id this instance's job workers lock jobs under, so the janitor can free them if the instance dies. */
export async function recordJobPool(db: DbExecutor, id: string, poolId: string): Promise<void> {
  await db.updateTable('server_instances').set({ job_pool_id: poolId }).where('id', '=', id).execute();
}

/** Instances whose job workers hold a job locked right now (alive or not). */
export async function findInstancesHoldingJobs(db: DbExecutor): Promise<string[]> {
  const result = await sql<{ id: string }>`
    select i.id from server_instances i
    where i.job_pool_id is not null
      and exists (select 1 from graphile_worker._private_jobs j where j.locked_by = i.job_pool_id)`.execute(
    db,
  );
  return result.rows.map((r) => r.id);
}

/**
 * Frees the jobs a dead instance's workers had locked, so another instance runs them now rather than after the
 * queue's own four-hour expiry. Returns how many were freed.
 */
export async function unlockJobsOfDeadInstance(db: DbExecutor, id: string): Promise<number> {
  const pool = await db
    .selectFrom('server_instances')
    .select('job_pool_id')
    .where('id', '=', id)
    .executeTakeFirst();
  if (!pool?.job_pool_id) return 0;
  const held = await sql<{ n: number }>`
    select count(*)::int as n from graphile_worker._private_jobs where locked_by = ${pool.job_pool_id}`.execute(
    db,
  );
  // The queue's own way to free a dead worker's jobs and named queues.
  await sql`select graphile_worker.force_unlock_workers(array[${pool.job_pool_id}])`.execute(db);
  return held.rows[0]?.n ?? 0;
}

/**
 * Forgets the job queue's named queues that hold no job (one exists per campaign that ever sent), as the library's
 * own GC_JOB_QUEUES clean-up does. Returns how many went.
 */
export async function pruneIdleJobQueues(db: DbExecutor): Promise<number> {
  const result = await sql<{ n: number }>`
    with gone as (delete from graphile_worker._private_job_queues q
      where q.locked_at is null
        and not exists (select 1 from graphile_worker._private_jobs j where j.job_queue_id = q.id)
      returning 1)
    select count(*)::int as n from gone`.execute(db);
  return result.rows[0]?.n ?? 0;
}

/** Only one instance tidies up at a time (a transaction advisory lock): true when this transaction has it. */
export async function tryJanitorLock(db: DbExecutor): Promise<boolean> {
  const lock = await sql<{ ok: boolean }>`select pg_try_advisory_xact_lock(727275) as ok`.execute(db);
  return lock.rows[0]?.ok === true;
}
