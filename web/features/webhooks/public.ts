/** Outgoing webhooks as other features use them. Other features import this file, never the feature's other files (decision 013). */
export { WebhooksCard } from './components/webhooks-card.tsx';
