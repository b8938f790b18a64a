import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { CALLBACK_NOTICE_WINDOW_MS } from '#domain/notifications/notification.schema.ts';
import { withActor, type Db } from '../../db/database.ts';

/**
 * Announces the callbacks that have come due (issue 13): each call-back disposition whose date has passed, whose
 * contact has not been called since (the rule of the dashboard's due callbacks), becomes one notification of its
 * owner through notify_user (migration 0023), which honours their settings and queues the e-mail. Every instance
 * sweeps; the notification's unique key makes the second sweep of the same callback do nothing. Returns how many
 * notifications it made.
 */
export async function sweepDueCallbacks(db: Db, now: Date): Promise<number> {
  const since = new Date(now.getTime() - CALLBACK_NOTICE_WINDOW_MS);
  const { rows } = await withActor(db, { kind: 'system' }, (trx) =>
    sql<{ made: string | null }>`
      select notify_user(
        d.user_id, 'callback-due', d.id::text,
        'Callback due: ' || coalesce(nullif(trim(c.first_name || ' ' || c.last_name), ''), c.phone, 'a contact'),
        'Time to call back' || coalesce(' ' || nullif(c.phone, ''), '') || coalesce(' (' || c.company || ')', '')
          || coalesce('. Notes: ' || nullif(d.notes, ''), '') || '.',
        '/contacts/' || d.contact_id) as made
      from call_dispositions d join contacts c on c.id = d.contact_id
      where d.disposition in ('call-back', 'callback') and d.callback_date is not null
        and d.callback_date <= ${now} and d.callback_date > ${since}
        and not exists (
          select 1 from call_dispositions later
          where later.contact_id = d.contact_id and later.called_at > d.called_at)
        and not exists (
          select 1 from notifications n
          where n.user_id = d.user_id and n.kind = 'callback-due' and n.subject_key = d.id::text)
      limit 1000`.execute(trx),
  );
  return rows.filter((r) => r.made !== null).length;
}

/** Sweeps every `everyMs` on this instance until stopped; a failed round is logged and the next one tries again. */
export function startCallbackSweep(
  db: Db,
  clock: () => Date,
  log: FastifyBaseLogger,
  everyMs: number,
): () => void {
  let running = false;
  const round = async () => {
    if (running) return;
    running = true;
    try {
      await sweepDueCallbacks(db, clock());
    } catch (error) {
      log.error({ err: error }, 'callback notification sweep failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void round(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
