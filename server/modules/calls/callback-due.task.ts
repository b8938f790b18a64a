import { callbackNotice } from '#domain/calls/callback-notice.ts';
import { withActor, type Db, type DbExecutor } from '../../db/database.ts';
import { enqueueJob } from '../../jobs/enqueue-job.ts';
import type { JobTask } from '../../jobs/job-runner.ts';
import { notifyUser } from '../notifications/public.ts';
import { findDueCallback } from './callbacks.repository.ts';

/** The job queue's name for announcing one callback at its time. */
export const CALLBACK_DUE_TASK = 'callback-due';

/**
 * Queues the announcement of a call-back, to run at its date, in the caller's transaction: the job exists exactly
 * when the disposition was saved. One job per disposition (its key).
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
    { runAt: at, jobKey: `callback-due:${dispositionId}` },
  );
}

/**
 * Announces a callback whose time has come, as its owner: only while it is still due (the rule of the dashboard's
 * due callbacks, callbacks.repository.ts). Returns the notification's id, or null when nothing was said (no longer
 * due, not the user's, turned off, or said before).
 */
export async function announceCallback(
  db: Db,
  userId: string,
  dispositionId: string,
): Promise<string | null> {
  return withActor(db, { kind: 'user', userId }, async (trx) => {
    const due = await findDueCallback(trx, userId, dispositionId);
    if (!due) return null;
    return notifyUser(trx, {
      userId,
      kind: 'callback-due',
      subject: due.id,
      ...callbackNotice({
        firstName: due.first_name,
        lastName: due.last_name,
        phone: due.phone,
        company: due.company,
        notes: due.notes,
      }),
      link: `/contacts/${due.contact_id}`,
    });
  });
}

export function callbackDueTask(ctx: { db: Db }): JobTask {
  return async (payload) => {
    const { dispositionId, userId } = payload as { dispositionId: string; userId: string };
    await announceCallback(ctx.db, userId, dispositionId);
  };
}
