import { sql, type Kysely } from 'kysely';

/**
 * Background work moves onto the PostgreSQL job queue (graphile-worker; docs/decisions/016-job-queue.md), whose own
 * schema is installed just before these migrations run:
 *  - each instance records the id its job workers lock jobs under, so the janitor can free the jobs of an instance
 *    that died mid-job;
 *  - bulk calls still running when the server was upgraded get their next step queued (the old timer loop is gone).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table server_instances add column job_pool_id text;
    select graphile_worker.add_job(
      identifier => 'bulk-call-step', payload => json_build_object('jobId', id), job_key => 'bulk-call:' || id,
      max_attempts => 10, job_key_mode => 'replace')
    from bulk_call_jobs where status = 'running';
  `.execute(db);
}
