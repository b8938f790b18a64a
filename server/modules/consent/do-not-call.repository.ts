import type { DbExecutor } from '../../db/database.ts';

/**
 * The user's do-not-call list (beyond the spec): numbers in E.164. A do-not-call disposition adds the
 * contact's number; the server refuses every later call to it until it is removed behind a confirmation.
 */
export async function isDoNotCall(db: DbExecutor, userId: string, e164: string): Promise<boolean> {
  const row = await db
    .selectFrom('do_not_call')
    .select('number_e164')
    .where('user_id', '=', userId)
    .where('number_e164', '=', e164)
    .executeTakeFirst();
  return row !== undefined;
}

export async function addDoNotCall(db: DbExecutor, userId: string, e164: string): Promise<void> {
  await db
    .insertInto('do_not_call')
    .values({ user_id: userId, number_e164: e164 })
    .onConflict((oc) => oc.columns(['user_id', 'number_e164']).doNothing())
    .execute();
}

export async function removeDoNotCall(db: DbExecutor, userId: string, e164: string): Promise<boolean> {
  const result = await db
    .deleteFrom('do_not_call')
    .where('user_id', '=', userId)
    .where('number_e164', '=', e164)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
