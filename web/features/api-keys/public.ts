/** Personal API keys as other features use them. Other features import this file, never the feature's other files (decision 013). */
export { ApiKeysCard } from './components/api-keys-card.tsx';
