import type { DbExecutor } from '../../db/database.ts';

/**
 * When an address unsubscribed from the user's campaigns (from the link in a campaign e-mail), or null. Addresses
 * are kept lower-cased.
 */
export async function unsubscribedAt(db: DbExecutor, userId: string, email: string): Promise<Date | null> {
  if (!email.trim()) return null;
  const row = await db
    .selectFrom('email_unsubscribes')
    .select('created_at')
    .where('user_id', '=', userId)
    .where('email', '=', email.trim().toLowerCase())
    .executeTakeFirst();
  return row?.created_at ?? null;
}

/** The address unsubscribes from the user's campaigns (from `campaignId`'s link); already unsubscribed: unchanged. */
export async function insertUnsubscribe(
  db: DbExecutor,
  userId: string,
  email: string,
  campaignId: string,
): Promise<void> {
  await db
    .insertInto('email_unsubscribes')
    .values({ user_id: userId, email: email.trim().toLowerCase(), campaign_id: campaignId })
    .onConflict((oc) => oc.columns(['user_id', 'email']).doNothing())
    .execute();
}
