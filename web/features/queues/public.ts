/** Call queues as other features use them: list, create, add contacts, pick one, walk one, the Call Queues table. Other features import this file, never the feature's other files (decision 013). */
export {
  useAddFromQueue,
  useAddToQueue,
  useCreateQueue,
  useQueueMembers,
  useQueues,
  useRestartQueue,
} from './api/queues-queries.ts';
export { CallQueuesTable, type CallQueueState } from './components/call-queues-table.tsx';
export { QueuePickerDialog } from './components/queue-picker-dialog.tsx';
export { tabWalker, useQueueWalk } from './use-queue-walk.ts';
export { addedToQueueText, createdQueueText } from './added-to-queue.ts';
export { SelectionPicker } from './components/selection-picker.tsx';
