import { z } from 'zod';
import { splitFullName } from '../text/person-name.ts';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const EMAIL_MAX_LENGTH = 254;
export const NAME_MAX_LENGTH = 100;

export const EmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX_LENGTH)
  .pipe(z.email('Invalid email address'));

export const SignInInputSchema = z.object({
  email: EmailSchema,
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
});
export type SignInInput = z.infer<typeof SignInInputSchema>;

export const SignUpInputSchema = z.object({
  email: EmailSchema,
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
    .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`),
  firstName: z.string().trim().max(NAME_MAX_LENGTH).default(''),
  lastName: z.string().trim().max(NAME_MAX_LENGTH).default(''),
});
export type SignUpInput = z.input<typeof SignUpInputSchema>;

export const ResetPasswordInputSchema = z.object({
  token: z.string().min(1).max(200),
  newPassword: SignUpInputSchema.shape.password,
});

/** A name given at sign-up, whose first word and rest each fit the profile's first and last name. */
export const FullNameSchema = z
  .string()
  .max(NAME_MAX_LENGTH * 2 + 1, 'Name is too long')
  .refine((name) => {
    const { firstName, lastName } = splitFullName(name);
    return firstName.length <= NAME_MAX_LENGTH && lastName.length <= NAME_MAX_LENGTH;
  }, `First and last name must each be at most ${NAME_MAX_LENGTH} characters`);

/**
 * The sign-in service's requests, bounded at the server's door before the service sees them (it applies its own
 * rules and messages to the rest; unknown fields pass through to it).
 */
export const AUTH_REQUEST_BODIES = {
  signIn: z.looseObject({
    email: z.string().max(EMAIL_MAX_LENGTH),
    password: z.string().max(PASSWORD_MAX_LENGTH),
  }),
  signUp: z.looseObject({
    email: z.string().max(EMAIL_MAX_LENGTH),
    password: z.string().max(PASSWORD_MAX_LENGTH),
    name: FullNameSchema.optional(),
  }),
  requestPasswordReset: z.looseObject({
    email: z.string().max(EMAIL_MAX_LENGTH),
    redirectTo: z.string().max(2000).optional(),
  }),
  resetPassword: z.looseObject({
    token: z.string().max(200),
    newPassword: z.string().max(PASSWORD_MAX_LENGTH),
  }),
  changePassword: z.looseObject({
    currentPassword: z.string().max(PASSWORD_MAX_LENGTH),
    newPassword: z.string().max(PASSWORD_MAX_LENGTH),
    revokeOtherSessions: z.boolean().optional(),
  }),
} as const;
