import { z } from 'zod';

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
