/** Contacts as other features use them: the contact selector and looking contacts up by id. Other features import this file, never the feature's other files (decision 013). */
export { useContactLookup } from './api/contacts-queries.ts';
export {
  ContactSelectorDialog,
  selectionSize,
  toBulkSelection,
  type ContactSelection,
  type PickedContact,
} from './components/contact-selector-dialog.tsx';
