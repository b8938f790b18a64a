import { z } from 'zod';
import { MAX_TAG_LENGTH, MAX_TAGS } from './tags.ts';
import { stateCode } from '../consent/calling-rules.ts';
import { isTimeZone } from '../time/zoned-time.ts';

export const ContactStatusSchema = z.enum(['new', 'contacted', 'active', 'inactive']);
export type ContactStatus = z.infer<typeof ContactStatusSchema>;
export const CONTACT_STATUSES = ContactStatusSchema.options;
export const DEFAULT_CONTACT_STATUS: ContactStatus = 'new';

/** Sane maximum lengths ("bad input"): generous for real data, refusing abuse. */
export const CONTACT_LIMITS = {
  name: 100,
  email: 254,
  phone: 40,
  company: 200,
  website: 500,
  title: 200,
  notes: 10_000,
} as const;

/** The stricter address pattern of the contact form ('Invalid email address'). */
export const FORM_EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;
/** The service's simple pattern ('Valid email is required'). */
export const SERVICE_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const optionalText = (max: number, label: string) =>
  z
    .string()
    .max(max, `${label} must be at most ${max} characters`)
    .transform((v) => v.trim())
    .nullish()
    .transform((v) => (v ? v : null));

const TagsSchema = z
  .array(
    z
      .string()
      .trim()
      .min(1)
      .max(MAX_TAG_LENGTH, `Each tag must be at most ${MAX_TAG_LENGTH} characters`)
      .regex(/^[^,;]+$/, 'A tag cannot contain a comma or a semicolon'),
  )
  .max(MAX_TAGS, `At most ${MAX_TAGS} tags`);

/** The editable fields of a contact, as the API receives them. */
const ContactFieldsSchema = z.object({
  firstName: z
    .string()
    .trim()
    .max(CONTACT_LIMITS.name, `First name must be at most ${CONTACT_LIMITS.name} characters`),
  lastName: z
    .string()
    .trim()
    .max(CONTACT_LIMITS.name, `Last name must be at most ${CONTACT_LIMITS.name} characters`),
  email: z
    .string()
    .trim()
    .max(CONTACT_LIMITS.email, `Email must be at most ${CONTACT_LIMITS.email} characters`),
  phone: optionalText(CONTACT_LIMITS.phone, 'Phone'),
  company: optionalText(CONTACT_LIMITS.company, 'Company'),
  website: optionalText(CONTACT_LIMITS.website, 'Website'),
  title: optionalText(CONTACT_LIMITS.title, 'Job title'),
  notes: optionalText(CONTACT_LIMITS.notes, 'Notes'),
  status: ContactStatusSchema.default(DEFAULT_CONTACT_STATUS),
  tags: TagsSchema.default([]),
  /** The contact's own time zone and US state, which win over their number's for calling hours. */
  timeZone: z
    .string()
    .trim()
    .max(64, 'Unknown time zone')
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || isTimeZone(v), 'Unknown time zone'),
  state: z
    .string()
    .trim()
    .max(40, 'Unknown US state')
    .nullish()
    .transform((v) => (v ? v : null))
    .refine(
      (v) => v === null || stateCode(v) !== null,
      'Unknown US state: use its two-letter code, such as FL',
    )
    .transform((v) => (v === null ? null : stateCode(v))),
});

/**
 * Create ("contact create service"): first name, last name required; e-mail must match the simple
 * pattern. Failures read 'Validation error: ' followed by the rule's message.
 */
export const CreateContactInputSchema = ContactFieldsSchema.superRefine((c, ctx) => {
  for (const issue of serviceRuleIssues(c)) ctx.addIssue({ code: 'custom', ...issue });
});
export type CreateContactInput = z.input<typeof CreateContactInputSchema>;

/** Update: any subset of fields; the service rules run on the merged result when a checked field changes. */
export const UpdateContactInputSchema = ContactFieldsSchema.partial().refine(
  (v) => Object.keys(v).length > 0,
  'Nothing to update',
);
export type UpdateContactInput = z.input<typeof UpdateContactInputSchema>;

export function serviceRuleIssues(c: {
  firstName?: string;
  lastName?: string;
  email?: string;
}): { path: string[]; message: string }[] {
  const issues: { path: string[]; message: string }[] = [];
  if (!c.firstName?.trim())
    issues.push({ path: ['firstName'], message: 'Validation error: First name is required' });
  if (!c.lastName?.trim())
    issues.push({ path: ['lastName'], message: 'Validation error: Last name is required' });
  if (!SERVICE_EMAIL_PATTERN.test(c.email?.trim() ?? ''))
    issues.push({ path: ['email'], message: 'Validation error: Valid email is required' });
  return issues;
}

/** The contact form in the browser: its own messages, before anything is sent. */
export function contactFormErrors(form: {
  firstName: string;
  lastName: string;
  email: string;
}): Partial<Record<'firstName' | 'lastName' | 'email', string>> {
  const errors: Partial<Record<'firstName' | 'lastName' | 'email', string>> = {};
  if (!form.firstName.trim()) errors.firstName = 'First name is required';
  if (!form.lastName.trim()) errors.lastName = 'Last name is required';
  if (!form.email.trim()) errors.email = 'Email is required';
  else if (!FORM_EMAIL_PATTERN.test(form.email.trim())) errors.email = 'Invalid email address';
  return errors;
}

export const ContactSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  phoneE164: z.string().nullable(),
  company: z.string().nullable(),
  website: z.string().nullable(),
  title: z.string().nullable(),
  notes: z.string().nullable(),
  status: ContactStatusSchema,
  tags: z.array(z.string()),
  isColdLead: z.boolean(),
  synced: z.boolean(),
  lastSyncedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastCallDate: z.string().nullable(),
  needsAttention: z.boolean(),
  isQualified: z.boolean(),
  timeZone: z.string().nullable().optional(),
  state: z.string().nullable().optional(),
});
export type Contact = z.infer<typeof ContactSchema>;

export const HistoryEntrySchema = z.object({
  id: z.string(),
  changedFields: z.array(z.string()),
  previousValues: z.record(z.string(), z.unknown()),
  newValues: z.record(z.string(), z.unknown()),
  changedAt: z.string(),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

export const ContactDetailSchema = z.object({ contact: ContactSchema, history: z.array(HistoryEntrySchema) });
export type ContactDetail = z.infer<typeof ContactDetailSchema>;

export const ContactIdParamsSchema = z.object({ id: z.uuid('Invalid contact id') });
