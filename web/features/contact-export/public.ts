/** Exporting contacts, as the contact screens use it. Other features import this file, never the feature's other files (decision 013). */
export { useExportContacts } from './export-contacts.ts';
