import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** Tables used by better-auth (names mapped in server/auth/auth.ts). */
export type AuthUsersTable = {
  id: string;
  name: string;
  email: string;
  email_verified: boolean;
  image: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
export type AuthSessionsTable = {
  id: string;
  token: string;
  user_id: string;
  expires_at: Timestamp;
  ip_address: string | null;
  user_agent: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
export type AuthAccountsTable = {
  id: string;
  account_id: string;
  provider_id: string;
  user_id: string;
  password: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
export type AuthVerificationsTable = {
  id: string;
  identifier: string;
  value: string;
  expires_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type UserProfilesTable = {
  id: string;
  email: string;
  first_name: Generated<string>;
  last_name: Generated<string>;
  role: 'pending' | 'user' | 'admin' | 'denied';
  deactivated_at: NullableTimestamp;
  reviewed_at: NullableTimestamp;
  reviewed_by: string | null;
  created_at: Generated<Date>;
};

export type SignInAttemptsTable = {
  id: Generated<string>;
  ip: string;
  email: string;
  succeeded: boolean;
  attempted_at: Timestamp;
};

export type OutboxMessagesTable = {
  id: Generated<string>;
  user_id: string | null;
  kind: string;
  from_address: string;
  to_address: string;
  subject: string;
  text_body: string;
  created_at: Generated<Date>;
};

export type Database = {
  auth_users: AuthUsersTable;
  auth_sessions: AuthSessionsTable;
  auth_accounts: AuthAccountsTable;
  auth_verifications: AuthVerificationsTable;
  user_profiles: UserProfilesTable;
  sign_in_attempts: SignInAttemptsTable;
  outbox_messages: OutboxMessagesTable;
};
