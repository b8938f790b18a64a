/** Contacts as the other modules use them: finding one, creating one, the contacts a filter matches, and the default queue every synced contact joins. Other modules import this file, never the module's other files (decision 013). */
export { applyContactFilters } from './contact-filters.repository.ts';
export { toCopyLine, writeContactBatch, type CopyLine } from './contact-batch.repository.ts';
export {
  findContact,
  findSelectedContacts,
  getContact,
  hasAnyContact,
  matchingIdsQuery,
  orderedSelection,
  selectedIds,
} from './contacts.repository.ts';
export { createContact } from './contacts.service.ts';
