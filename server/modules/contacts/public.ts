/** Contacts as the other modules use them: finding one, creating one, the contacts a selection or filter names, and writing an import's batches. Other modules import this file, never the module's other files (decision 013). */
export { applyContactFilters } from './contact-filters.repository.ts';
export { toCopyLine, writeContactBatch, type CopyLine } from './contact-batch.repository.ts';
export { findContact, getContact, hasAnyContact } from './contacts.repository.ts';
export {
  findSelectedContacts,
  matchingIdsQuery,
  orderedSelection,
  selectedIds,
} from './contact-selection.repository.ts';
export { createContact } from './contacts.service.ts';
