import type { DbExecutor } from '../../db/database.ts';

/** The number opted out (for every user, or for `userId` alone), with the word it used; already out: unchanged. */
export async function insertOptOut(
  db: DbExecutor,
  phone: string,
  keyword: string,
  userId: string | null,
): Promise<void> {
  await db
    .insertInto('sms_opt_outs')
    .values({ phone, keyword: keyword.trim().toUpperCase().slice(0, 20), user_id: userId })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** The number opts back in (for every user, or for `userId` alone). */
export async function deleteOptOut(db: DbExecutor, phone: string, userId: string | null): Promise<void> {
  let query = db.deleteFrom('sms_opt_outs').where('phone', '=', phone);
  query = userId ? query.where('user_id', '=', userId) : query.where('user_id', 'is', null);
  await query.execute();
}

/** Whether texts from `userId` may not go to this number (it opted out of everyone's, or of theirs). */
export async function isSmsOptedOut(db: DbExecutor, phone: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('sms_opt_outs')
    .select('phone')
    .where('phone', '=', phone)
    .where((eb) => eb.or([eb('user_id', 'is', null), eb('user_id', '=', userId)]))
    .executeTakeFirst();
  return row !== undefined;
}
