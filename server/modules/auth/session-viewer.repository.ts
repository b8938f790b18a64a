import { sql } from 'kysely';
import type { Role } from '#domain/auth/roles.ts';
import type { Profile } from '#domain/profiles/profile.schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import { toProfile } from '../profiles/public.ts';

/** A session found by its token: whose it is, until when, and the account's profile (null before it is made). */
export type SessionViewerRow = {
  userId: string;
  expiresAt: Date;
  profile: Profile | null;
};

/**
 * The session of a token with its user and profile, in one statement outside any transaction (session_viewer,
 * migration 0050; decision 039); undefined when no session has that token.
 */
export async function findSessionViewer(
  db: DbExecutor,
  token: string,
): Promise<SessionViewerRow | undefined> {
  const { rows } = await sql<{
    user_id: string;
    expires_at: Date;
    profile_email: string | null;
    first_name: string;
    last_name: string;
    role: Role;
    deactivated_at: Date | null;
    profile_created_at: Date;
    time_zone: string | null;
    phone_country: string;
  }>`select * from session_viewer(${token})`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  return {
    userId: row.user_id,
    expiresAt: row.expires_at,
    profile:
      row.profile_email === null
        ? null
        : toProfile({
            id: row.user_id,
            email: row.profile_email,
            first_name: row.first_name,
            last_name: row.last_name,
            role: row.role,
            deactivated_at: row.deactivated_at,
            created_at: row.profile_created_at,
            time_zone: row.time_zone,
            phone_country: row.phone_country,
          }),
  };
}
