import { z } from 'zod';
import { ContactSchema, SERVICE_EMAIL_PATTERN } from '../contacts/contact.schema.ts';
import { phoneDigits } from '../contacts/phone.ts';
import { ContactEmailSchema } from '../email/email.schema.ts';

/** The dialer's Add New Contact form, checked the same way in the browser and on the server. */
export const DialerContactInputSchema = z.object({
  firstName: z.string().trim().max(100).default(''),
  lastName: z.string().trim().max(100).default(''),
  phone: z.string().trim().max(40).default(''),
  email: z.string().trim().max(254).default(''),
  company: z.string().trim().max(200).default(''),
  /**
   * Send an e-mail once the contact is saved: one of the user's templates, or enrolment in one of their e-mail
   * sequences (a template choice or a sequence choice; choosing one clears the other).
   */
  sendEmail: z.boolean().default(false),
  templateId: z.uuid().nullish(),
  sequenceId: z.uuid().nullish(),
  /** The queue the dialer is walking: the new contact joins it (every synced contact joins the default queue). */
  queueId: z.uuid('Invalid queue id').nullish(),
});
export type DialerContactInput = z.input<typeof DialerContactInputSchema>;

export type DialerContactProblem = { title: string; description: string; field: string };

/**
 * In its order and words: both names; a phone or an e-mail; an e-mail when one is to be sent.
 * Beyond the spec: what is given must be usable (a phone that normalises, an e-mail that looks like one), and an
 * e-mail to send needs its template.
 */
export function dialerContactProblem(
  input: z.output<typeof DialerContactInputSchema>,
): DialerContactProblem | null {
  if (!input.firstName || !input.lastName)
    return {
      title: 'Required fields missing',
      description: 'First name and last name are required',
      field: input.firstName ? 'lastName' : 'firstName',
    };
  if (!input.phone && !input.email)
    return {
      title: 'Contact information required',
      description: 'Either phone number or email is required',
      field: 'phone',
    };
  if (input.sendEmail && !input.email)
    return {
      title: 'Email required',
      description: 'Email address is required to send an email',
      field: 'email',
    };
  const digits = phoneDigits(input.phone).length;
  if (input.phone && (digits < 7 || digits > 15))
    return {
      title: 'Invalid phone number',
      description: 'Enter a phone number with 7 to 15 digits',
      field: 'phone',
    };
  if (input.email && !SERVICE_EMAIL_PATTERN.test(input.email))
    return { title: 'Invalid email', description: 'Enter a valid email address', field: 'email' };
  if (input.sendEmail && !input.templateId && !input.sequenceId)
    return {
      title: 'Template required',
      description: 'Choose a template or a sequence for the email',
      field: 'templateId',
    };
  if (input.sendEmail && input.templateId && input.sequenceId)
    return {
      title: 'Choose one',
      description: 'Send a template or enrol in a sequence, not both',
      field: 'sequenceId',
    };
  return null;
}

export const DialerContactResultSchema = z.object({
  contact: ContactSchema,
  /** The e-mail sent (or kept in the outbox) when the form asked for one. */
  email: ContactEmailSchema.nullable(),
  /** The sequence the contact joined when the form asked for one. */
  sequence: z.object({ id: z.string(), name: z.string() }).nullable(),
});
