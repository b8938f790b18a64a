/** Salesforce as other features use it. Other features import this file, never the feature's other files (decision 013). */
export { SalesforceCard } from './components/salesforce-card.tsx';
