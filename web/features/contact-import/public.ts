/** Importing contacts, as the screens that offer Import use it. Other features import this file, never the feature's other files (decision 013). */
export { ImportContactsDialog } from './components/import-contacts-dialog.tsx';
