import { z } from 'zod';
import { KeysetPositionSchema } from '../paging/keyset-position.schema.ts';

/** The Qualified Leads tab's load failure. */
export const QUALIFIED_LEADS_ERROR = 'Error loading qualified leads';

/**
 * The Qualified Leads tab ("select where is_qualified is true, newest first"): a search over
 * the contact's name, company and e-mail and the call's notes, page by page on the server.
 */
export const QualifiedLeadsQuerySchema = z.object({
  search: z.string().trim().max(200, 'A search has at most 200 characters').optional(),
  /** Where the page starts: the `next` of the page before. */
  after: KeysetPositionSchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(30),
});

export const QualifiedLeadSchema = z.object({
  dispositionId: z.string(),
  contactId: z.string().nullable(),
  /** Null when the contact has since been deleted (decision 000 "Deleting a contact"). */
  name: z.string().nullable(),
  company: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  website: z.string().nullable(),
  notes: z.string().nullable(),
  calledAt: z.string(),
});
export type QualifiedLead = z.infer<typeof QualifiedLeadSchema>;

export const QualifiedLeadsPageSchema = z.object({
  leads: z.array(QualifiedLeadSchema),
  next: z.string().nullable(),
});
