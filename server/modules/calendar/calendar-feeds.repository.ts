import type { DbExecutor } from '../../db/database.ts';

/** The user's feed, if they made one. */
export async function findFeed(db: DbExecutor, userId: string) {
  return db
    .selectFrom('calendar_feeds')
    .select(['token_sealed', 'created_at', 'last_fetched_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Makes the user's feed, or replaces its token (the old address stops working at once). */
export async function saveFeed(
  db: DbExecutor,
  feed: { userId: string; tokenHash: string; tokenSealed: string },
  now: Date,
): Promise<void> {
  const values = { token_hash: feed.tokenHash, token_sealed: feed.tokenSealed, created_at: now };
  await db
    .insertInto('calendar_feeds')
    .values({ user_id: feed.userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...values, last_fetched_at: null }))
    .execute();
}

export async function deleteFeed(db: DbExecutor, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('calendar_feeds').where('user_id', '=', userId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * Whose feed a token's hash opens (the system actor: the request has no session), only for an approved, active
 * account: a denied or deactivated user's feed answers nothing.
 */
export async function findFeedOwner(db: DbExecutor, tokenHash: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('calendar_feeds as f')
    .innerJoin('user_profiles as p', 'p.id', 'f.user_id')
    .select('f.user_id')
    .where('f.token_hash', '=', tokenHash)
    .where('p.role', 'in', ['user', 'admin'])
    .where('p.deactivated_at', 'is', null)
    .executeTakeFirst();
  return row?.user_id;
}

export async function markFeedFetched(db: DbExecutor, userId: string, now: Date): Promise<void> {
  await db
    .updateTable('calendar_feeds')
    .set({ last_fetched_at: now })
    .where('user_id', '=', userId)
    .execute();
}
