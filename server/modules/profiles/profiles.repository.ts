import { sql } from 'kysely';
import type { Profile } from '#domain/profiles/profile.schema.ts';
import { roleForNewProfile, shouldUpgradeToAdmin } from '#domain/auth/roles.ts';
import type { DbExecutor } from '../../db/database.ts';
import { DEFAULT_PHONE_COUNTRY } from '#domain/contacts/phone.ts';
import type { UserProfilesTable } from '../../db/schema.ts';
import type { Selectable } from 'kysely';

export const PROFILE_COLUMNS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'role',
  'deactivated_at',
  'created_at',
  'time_zone',
  'phone_country',
] as const;

export function toProfile(
  row: Pick<Selectable<UserProfilesTable>, (typeof PROFILE_COLUMNS)[number]>,
): Profile {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role,
    deactivated: row.deactivated_at !== null,
    createdAt: row.created_at.toISOString(),
    timeZone: row.time_zone,
    phoneCountry: row.phone_country,
  };
}

/** A profile's columns as a statement joining it to another row returns them (null when there is no profile). */
export type JoinedProfileColumns = {
  profile_email: string | null;
  first_name: string;
  last_name: string;
  role: Profile['role'];
  deactivated_at: Date | null;
  profile_created_at: Date;
  time_zone: string | null;
  phone_country: string;
};

/** The profile of user `id` from a row that joined it (session_viewer, api_key_viewer), or null when it had none. */
export function joinedProfile(id: string, row: JoinedProfileColumns): Profile | null {
  if (row.profile_email === null) return null;
  return toProfile({ ...row, id, email: row.profile_email, created_at: row.profile_created_at });
}

export async function findProfile(db: DbExecutor, id: string): Promise<Profile | undefined> {
  const row = await db
    .selectFrom('user_profiles')
    .select(PROFILE_COLUMNS)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toProfile(row) : undefined;
}

/**
 * Creates the profile of a new account, or returns the existing one ("the profile is ensured").
 * The first profile of an instance becomes admin; the advisory lock makes two simultaneous first sign-ups
 * yield exactly one admin. ADMIN_EMAIL's profile becomes, or is upgraded to, admin.
 * Runs in a transaction acting as the system.
 */
export async function ensureProfile(
  trx: DbExecutor,
  user: { id: string; email: string; firstName: string; lastName: string },
  adminEmail: string | undefined,
): Promise<Profile> {
  await sql`select pg_advisory_xact_lock(hashtext('user_profiles:first_admin'))`.execute(trx);
  const existing = await findProfile(trx, user.id);
  if (existing) {
    if (!shouldUpgradeToAdmin({ email: existing.email, role: existing.role, adminEmail })) return existing;
    const row = await trx
      .updateTable('user_profiles')
      .set({ role: 'admin', deactivated_at: null })
      .where('id', '=', user.id)
      .returning(PROFILE_COLUMNS)
      .executeTakeFirstOrThrow();
    return toProfile(row);
  }
  const admin = await trx
    .selectFrom('user_profiles')
    .select('id')
    .where('role', '=', 'admin')
    .limit(1)
    .executeTakeFirst();
  const role = roleForNewProfile({ email: user.email, adminEmail, instanceHasAdmin: admin !== undefined });
  const row = await trx
    .insertInto('user_profiles')
    .values({ id: user.id, email: user.email, first_name: user.firstName, last_name: user.lastName, role })
    .returning(PROFILE_COLUMNS)
    .executeTakeFirstOrThrow();
  return toProfile(row);
}

/** The user's own name, time zone and phone country (Settings → Profile). */
export async function updateOwnProfile(
  db: DbExecutor,
  userId: string,
  input: { firstName: string; lastName: string; timeZone: string | null; phoneCountry?: string | undefined },
): Promise<Profile> {
  const row = await db
    .updateTable('user_profiles')
    .set({
      first_name: input.firstName,
      last_name: input.lastName,
      time_zone: input.timeZone,
      ...(input.phoneCountry !== undefined && { phone_country: input.phoneCountry }),
    })
    .where('id', '=', userId)
    .returning(PROFILE_COLUMNS)
    .executeTakeFirstOrThrow();
  return toProfile(row);
}

/** The country the user's numbers without a country code are read in ('US' for a user not found). */
export async function phoneCountryOf(db: DbExecutor, userId: string): Promise<string> {
  const row = await db
    .selectFrom('user_profiles')
    .select('phone_country')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.phone_country ?? DEFAULT_PHONE_COUNTRY;
}

/** Whether the user's calls go out from the caller ID nearest each contact (Settings → Phone; decision 027). */
export async function localPresenceOf(db: DbExecutor, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('user_profiles')
    .select('local_presence')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.local_presence ?? false;
}

export async function setLocalPresence(db: DbExecutor, userId: string, on: boolean): Promise<void> {
  await db.updateTable('user_profiles').set({ local_presence: on }).where('id', '=', userId).execute();
}
