/** Contacts as other features use them: the contact selector, looking contacts up by id, and the contact list (which a feature above it gives its Send to Campaign). Other features import this file, never the feature's other files (decision 013). */
export { useContactLookup } from './api/contacts-queries.ts';
export {
  ContactSelectorDialog,
  selectionSize,
  toBulkSelection,
  type ContactSelection,
  type PickedContact,
} from './components/contact-selector-dialog.tsx';
export { ContactListPage, type SendToCampaignProps } from './components/contact-list-page.tsx';
