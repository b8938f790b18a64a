import type { DbExecutor } from '../../db/database.ts';

/*
 * The sign-in service's own tables (auth_users, auth_sessions, …) are written by better-auth, configured in
 * auth.ts; these are the two changes the product makes to them itself.
 */

/** Ends every session of the user at once (a denied or deactivated account, an admin's action). */
export async function deleteSessionsOf(db: DbExecutor, userId: string): Promise<void> {
  await db.deleteFrom('auth_sessions').where('user_id', '=', userId).execute();
}

/** The sign-in service's name of the user follows their profile's (Settings → Profile). */
export async function renameAuthUser(db: DbExecutor, userId: string, name: string, now: Date): Promise<void> {
  await db.updateTable('auth_users').set({ name, updated_at: now }).where('id', '=', userId).execute();
}
