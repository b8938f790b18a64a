/** Contacts as the other modules use them: finding one, creating one, the contacts a filter matches, and the default queue every synced contact joins. Other modules import this file, never the module's other files (decision 013). */
export { applyContactFilters } from './contact-filters.ts';
export { ensureDefaultQueue, queueMissingSyncedContacts } from './contact-sync.repository.ts';
export {
  findContact,
  getContact,
  hasAnyContact,
  orderedSelection,
  selectedIds,
} from './contacts.repository.ts';
export { createContact } from './contacts.service.ts';
