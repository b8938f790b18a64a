import { sql } from 'kysely';
import { API_KEY_WINDOW_SECONDS, type ApiKeyScope } from '#domain/api-keys/api-key.ts';
import type { DbExecutor } from '../../db/database.ts';
import { joinedProfile, type JoinedProfileColumns } from '../profiles/public.ts';

const LISTED = ['id', 'name', 'scope', 'hint', 'created_at', 'last_used_at'] as const;

/** The user's keys, oldest first. */
export async function listKeys(db: DbExecutor, userId: string) {
  return db
    .selectFrom('api_keys')
    .select(LISTED)
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function countKeys(db: DbExecutor, userId: string): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Until the transaction ends, no other request makes a key for this user. */
export async function lockKeysOf(db: DbExecutor, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`api-keys:${userId}`}, 0))`.execute(db);
}

export async function insertKey(
  db: DbExecutor,
  key: { userId: string; name: string; scope: ApiKeyScope; tokenHash: string; hint: string },
  now: Date,
) {
  return db
    .insertInto('api_keys')
    .values({
      user_id: key.userId,
      name: key.name,
      scope: key.scope,
      token_hash: key.tokenHash,
      hint: key.hint,
      created_at: now,
      window_started_at: now,
    })
    .returning(LISTED)
    .executeTakeFirstOrThrow();
}

/** Revokes a key: the row goes, so the next request with it is refused. False when the user has no such key. */
export async function deleteKey(db: DbExecutor, userId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('api_keys')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * Counts a request made with the key whose hash this is and finds the key with its account's profile, in one
 * statement outside any transaction (api_key_viewer, migration 0051; decision 039): a window older than a minute
 * starts again at this request; the last use is now. Undefined when no key has this hash (never made, or revoked).
 */
export async function useApiKey(db: DbExecutor, tokenHash: string, now: Date) {
  const { rows } = await sql<
    JoinedProfileColumns & {
      key_id: string;
      key_user_id: string;
      key_scope: ApiKeyScope;
      key_window_started_at: Date;
      key_window_count: number;
    }
  >`select * from api_key_viewer(${tokenHash}, ${now}, ${API_KEY_WINDOW_SECONDS})`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  return {
    key: {
      id: row.key_id,
      userId: row.key_user_id,
      scope: row.key_scope,
      windowStartedAt: row.key_window_started_at,
      windowCount: row.key_window_count,
    },
    profile: joinedProfile(row.key_user_id, row),
  };
}
