import { z } from 'zod';
import { CONTACT_LIMITS } from './contact.schema.ts';

/**
 * Add Cold Lead: a company name or a phone number is required; website is free format.
 * The lead is stored with first name 'Cold Lead', last name the company (or 'Contact'), status new, the cold-lead
 * flag, and a clearly fake placeholder address on a reserved domain (decision 000), never sent to.
 */
export const COLD_LEAD_REQUIRED = {
  title: 'Required fields missing',
  description: 'Please provide at least a company name or phone number',
};

export const ColdLeadInputSchema = z
  .object({
    company: z.string().trim().max(CONTACT_LIMITS.company).optional().default(''),
    phone: z.string().trim().max(CONTACT_LIMITS.phone).optional().default(''),
    website: z.string().trim().max(CONTACT_LIMITS.website).optional().default(''),
    contactName: z
      .string()
      .trim()
      .max(CONTACT_LIMITS.name * 2)
      .optional()
      .default(''),
    title: z.string().trim().max(CONTACT_LIMITS.title).optional().default(''),
    notes: z.string().trim().max(CONTACT_LIMITS.notes).optional().default(''),
  })
  .refine((v) => v.company !== '' || v.phone !== '', {
    message: COLD_LEAD_REQUIRED.description,
    path: ['company'],
  });
export type ColdLeadInput = z.input<typeof ColdLeadInputSchema>;

export const PLACEHOLDER_EMAIL_DOMAIN = 'example.invalid';

export function coldLeadPlaceholderEmail(id: string): string {
  return `cold-lead+${id}@${PLACEHOLDER_EMAIL_DOMAIN}`;
}

export function isPlaceholderEmail(email: string | null | undefined): boolean {
  return Boolean(email?.toLowerCase().endsWith(`@${PLACEHOLDER_EMAIL_DOMAIN}`));
}

export function coldLeadNames(company: string): { firstName: string; lastName: string } {
  return { firstName: 'Cold Lead', lastName: company.trim() || 'Contact' };
}
