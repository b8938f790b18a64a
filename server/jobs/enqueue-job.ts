import { sql } from 'kysely';
import type { DbExecutor } from '../db/database.ts';

export type EnqueueOptions = {
  /** When the job may run; now when absent. */
  runAt?: Date;
  /**
   * At most one pending job per key: adding a job under a key that has one waiting replaces it (its payload and
   * time), so a retried request or a re-run step never schedules the same work twice.
   */
  jobKey?: string;
  maxAttempts?: number;
  /** Jobs of one named queue run one after another, never two at once (one campaign's sends). */
  queueName?: string;
};

/**
 * Adds a job in the caller's transaction: it exists exactly when the work that asked for it was committed (a
 * campaign is created and its send is queued, or neither).
 */
export async function enqueueJob(
  db: DbExecutor,
  task: string,
  payload: Record<string, unknown>,
  options: EnqueueOptions = {},
): Promise<void> {
  await sql`select graphile_worker.add_job(
    identifier => ${task},
    payload => ${JSON.stringify(payload)}::json,
    run_at => ${options.runAt ?? null}::timestamptz,
    job_key => ${options.jobKey ?? null},
    queue_name => ${options.queueName ?? null},
    max_attempts => ${options.maxAttempts ?? 10},
    job_key_mode => 'replace'
  )`.execute(db);
}
