import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import { Logger, run, type Runner, type Task, type WorkerEvents } from 'graphile-worker';
import pg from 'pg';
import { JOB_SCHEMA } from '../db/job-schema.ts';

/** A task: the work of one job, given its payload; throwing makes the queue retry it with back-off. */
export type JobTask = Task;

export type JobRunner = {
  /** The id this instance's workers lock jobs under (recorded so the janitor can free them if it dies). */
  poolId: string;
  stop: () => Promise<void>;
};

/** graphile-worker's log lines go to the server's log, at the same levels. */
function loggerFor(log: FastifyBaseLogger): Logger {
  return new Logger((scope) => (level, message, meta) => {
    const entry = { job: scope, ...meta };
    const name = String(level);
    if (name === 'error') log.error(entry, message);
    else if (name === 'warning') log.warn(entry, message);
    else if (name === 'info') log.info(entry, message);
    else log.debug(entry, message);
  });
}

/**
 * Starts this instance's workers on the PostgreSQL job queue (docs/decisions/016-job-queue.md). Every instance runs
 * them; a job is locked by one worker at a time, new jobs are picked up at once through LISTEN/NOTIFY, and jobs
 * scheduled for later (retries, paced sends) within `pollIntervalMs`. The workers have their own small pool, so a
 * burst of jobs never takes the connections requests need.
 */
export async function startJobRunner(options: {
  connectionString: string;
  tasks: Record<string, JobTask>;
  log: FastifyBaseLogger;
  concurrency?: number;
  pollIntervalMs?: number;
  /** Recurring jobs, in graphile-worker's crontab format: each runs once per time whatever the instances. */
  crontab?: string;
}): Promise<JobRunner> {
  const concurrency = options.concurrency ?? 4;
  const pgPool = new pg.Pool({ connectionString: options.connectionString, max: concurrency + 2 });
  const lost = (error: Error) => options.log.warn({ err: error }, 'job queue connection lost');
  pgPool.on('error', lost);
  pgPool.on('connect', (client) => client.on('error', lost));
  const events: WorkerEvents = new EventEmitter();
  let poolId = '';
  events.on('pool:create', ({ workerPool }) => (poolId = workerPool.id));
  let runner: Runner;
  try {
    runner = await run({
      pgPool,
      schema: JOB_SCHEMA,
      taskList: options.tasks,
      ...(options.crontab && { crontab: options.crontab }),
      concurrency,
      pollInterval: options.pollIntervalMs ?? 1000,
      noHandleSignals: true,
      logger: loggerFor(options.log),
      events,
    });
  } catch (error) {
    await pgPool.end();
    throw error;
  }
  return {
    poolId,
    stop: async () => {
      await runner.stop();
      await pgPool.end();
    },
  };
}
