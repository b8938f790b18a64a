import { sql } from 'kysely';
import type { Profile } from '#domain/profiles/profile.schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import { joinedProfile, type JoinedProfileColumns } from '../profiles/public.ts';

/** A session found by its token: whose it is, until when, and the account's profile (null before it is made). */
export type SessionViewerRow = { userId: string; expiresAt: Date; profile: Profile | null };

/**
 * The session of a token with its account's profile, in one statement outside any transaction (session_viewer,
 * migration 0050; decision 039); undefined when no session has that token.
 */
export async function findSessionViewer(
  db: DbExecutor,
  token: string,
): Promise<SessionViewerRow | undefined> {
  const { rows } = await sql<JoinedProfileColumns & { user_id: string; expires_at: Date }>`
    select * from session_viewer(${token})`.execute(db);
  const row = rows[0];
  return row && { userId: row.user_id, expiresAt: row.expires_at, profile: joinedProfile(row.user_id, row) };
}
