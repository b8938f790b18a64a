import { z } from 'zod';
import { RoleSchema } from '../auth/roles.ts';
import { TimeZoneSchema } from '../time/zoned-time.ts';
import { PhoneCountrySchema } from '../contacts/phone.ts';

/** user_profiles plus the deactivation state an administrator of a team needs. */
export const ProfileSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: RoleSchema,
  deactivated: z.boolean(),
  createdAt: z.string(),
  /** The IANA zone chosen in Settings → Profile; null: the browser's. */
  timeZone: z.string().nullable(),
  /** The country numbers written without a country code are read in (ISO 3166, 'US' unless chosen). */
  phoneCountry: z.string(),
});
export type Profile = z.infer<typeof ProfileSchema>;

/** GET /api/me: who is signed in. */
export const MeResponseSchema = z.object({ profile: ProfileSchema });
export type MeResponse = z.infer<typeof MeResponseSchema>;

/**
 * The account's one name field (as the sign-in service keeps it) split into the profile's first name (its first
 * word) and last name (the rest).
 */
export function fullName(p: { firstName: string; lastName: string; email: string }): string {
  const name = `${p.firstName} ${p.lastName}`.trim();
  return name || p.email;
}

/** GET /api/session: who is signed in, if anyone, and why not (never an error status, so the browser stays quiet). */
export const SessionStateSchema = z.object({
  profile: ProfileSchema.nullable(),
  reason: z.enum(['signed-out', 'denied', 'deactivated']).nullable(),
});
export type SessionState = z.infer<typeof SessionStateSchema>;

/**
 * Settings → Profile: the user's name, time zone (null: the browser's) and the country their phone numbers are read in. The e-mail is shown, not
 * edited here: it is the sign-in identity.
 */
export const UpdateProfileSchema = z.object({
  firstName: z.string().trim().max(100, 'First name has at most 100 characters'),
  lastName: z.string().trim().max(100, 'Last name has at most 100 characters'),
  timeZone: TimeZoneSchema.nullable(),
  /** Left as it is when absent. */
  phoneCountry: PhoneCountrySchema.optional(),
});
export type UpdateProfileInput = z.infer<typeof UpdateProfileSchema>;
