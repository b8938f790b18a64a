import { z } from 'zod';
import { ContactFilterSchema, ContactTabSchema } from './contact-list.schema.ts';

export const MAX_SELECTED_IDS = 10_000;

/**
 * What a bulk action acts on (decision 000 "Select-all"): the ids ticked on screen, every contact matching the
 * current tab and filters, or the contacts an import created, resolved on the server.
 */
export const BulkSelectionSchema = z.union([
  z.object({
    ids: z.array(z.uuid('Invalid contact id')).min(1, 'No contacts selected').max(MAX_SELECTED_IDS),
  }),
  z.object({ allMatching: ContactFilterSchema.extend({ tab: ContactTabSchema.default('all') }) }),
  /** The contacts an import of the user created (decision 000 "Create-queue Import Contacts": it selects them). */
  z.object({ importId: z.uuid('Invalid import id') }),
]);
export type BulkSelection = z.input<typeof BulkSelectionSchema>;

export const BulkDeleteResultSchema = z.object({ deleted: z.number().int() });
