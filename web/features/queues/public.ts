/** Call queues as other features use them: list, create, add contacts. Other features import this file, never the feature's other files (decision 013). */
export { useAddToQueue, useCreateQueue, useQueues } from './api/queues-queries.ts';
