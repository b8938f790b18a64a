import { sql } from 'kysely';
import { withActor, type Db, type DbExecutor } from '../../db/database.ts';
import { enqueueJob } from '../../jobs/enqueue-job.ts';
import type { JobTask } from '../../jobs/job-runner.ts';

/** The job queue's name for announcing one callback at its time. */
export const CALLBACK_DUE_TASK = 'callback-due';

/**
 * Queues the announcement of a call-back, to run at its date (issue 13), in the caller's transaction: the job
 * exists exactly when the disposition was saved. One job per disposition (its key).
 */
export async function scheduleCallbackNotice(
  db: DbExecutor,
  userId: string,
  dispositionId: string,
  at: Date,
): Promise<void> {
  await enqueueJob(
    db,
    CALLBACK_DUE_TASK,
    { dispositionId, userId },
    {
      runAt: at,
      jobKey: `callback-due:${dispositionId}`,
    },
  );
}

/**
 * Announces a callback whose time has come, as its owner: only while it is still due, that is while the contact has
 * not been called since it was saved (the rule of the dashboard's due callbacks), through notify_user (migration
 * 0023), which honours the user's settings, makes it once whatever the retries, and queues the e-mail. Returns the
 * notification's id, or null when nothing was said.
 */
export async function announceCallback(
  db: Db,
  userId: string,
  dispositionId: string,
): Promise<string | null> {
  return withActor(db, { kind: 'user', userId }, async (trx) => {
    const { rows } = await sql<{ made: string | null }>`
      select notify_user(
        d.user_id, 'callback-due', d.id::text,
        'Callback due: ' || coalesce(nullif(trim(c.first_name || ' ' || c.last_name), ''), c.phone, 'a contact'),
        'Time to call back' || coalesce(' ' || nullif(c.phone, ''), '') || coalesce(' (' || c.company || ')', '')
          || coalesce('. Notes: ' || nullif(d.notes, ''), '') || '.',
        '/contacts/' || d.contact_id) as made
      from call_dispositions d join contacts c on c.id = d.contact_id
      where d.id = ${dispositionId} and d.user_id = ${userId}
        and d.disposition in ('call-back', 'callback') and d.callback_date is not null
        and not exists (
          select 1 from call_dispositions later
          where later.contact_id = d.contact_id and later.called_at > d.called_at)`.execute(trx);
    return rows[0]?.made ?? null;
  });
}

export function callbackDueTask(ctx: { db: Db }): JobTask {
  return async (payload) => {
    const { dispositionId, userId } = payload as { dispositionId: string; userId: string };
    await announceCallback(ctx.db, userId, dispositionId);
  };
}
