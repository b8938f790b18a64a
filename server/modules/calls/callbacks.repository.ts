import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { DbExecutor } from '../../db/database.ts';

/**
 * A callback is due while it is the contact's latest disposition: a call-back (or a legacy 'callback') not
 * followed by any later disposition of that contact. The one statement of that rule, used by the dashboard's list
 * and by the notification announced at the callback's time.
 */
function stillDue(eb: ExpressionBuilder<Database & { d: Database['call_dispositions'] }, 'd'>) {
  return eb.and([
    eb('d.disposition', 'in', ['call-back', 'callback']),
    eb('d.callback_date', 'is not', null),
    eb.not(
      eb.exists(
        eb
          .selectFrom('call_dispositions as later')
          .select('later.id')
          .whereRef('later.contact_id', '=', 'd.contact_id')
          .whereRef('later.called_at', '>', 'd.called_at'),
      ),
    ),
  ]);
}

const dueCallbacks = (db: DbExecutor, userId: string) =>
  db
    .selectFrom('call_dispositions as d')
    .innerJoin('contacts as c', 'c.id', 'd.contact_id')
    .select([
      'd.id',
      'd.contact_id',
      'd.callback_date',
      'd.notes',
      'c.first_name',
      'c.last_name',
      'c.phone',
      'c.company',
    ])
    .where('d.user_id', '=', userId)
    .where(stillDue);

/** Callbacks whose date has come, oldest first, each with what the agent noted (the dashboard's list). */
export async function findDueCallbacks(db: DbExecutor, userId: string, now: Date) {
  return dueCallbacks(db, userId)
    .where('d.callback_date', '<=', now)
    .orderBy('d.callback_date')
    .limit(100)
    .execute();
}

/**
 * The user's callbacks still due whose time is at or after `since`, soonest first (the calendar feed: past ones a
 * while, and every one to come), at most `limit`.
 */
export async function findCallbacksSince(db: DbExecutor, userId: string, since: Date, limit: number) {
  return dueCallbacks(db, userId)
    .where('d.callback_date', '>=', since)
    .orderBy('d.callback_date')
    .limit(limit)
    .execute();
}

/** One callback of the user, if it is still due (its contact has not been called since). */
export async function findDueCallback(db: DbExecutor, userId: string, dispositionId: string) {
  return dueCallbacks(db, userId).where('d.id', '=', dispositionId).executeTakeFirst();
}
