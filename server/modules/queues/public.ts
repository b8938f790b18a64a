/** Call queues as the other modules use them: a queue's members as the dialer walks them (held, completed, released, restarted), a queue's dialing mode, completing a contact when its disposition is saved, adding contacts, and the job that adds a large selection in the background. Other modules import this file, never the module's other files (decision 013). */
export {
  completeMembers as completeQueueMembers,
  findOpenMembers,
  heldContact,
  holdMembers,
  releaseHolds,
  renewHold,
  findWaiting,
  putMembersToWait,
  restartQueue,
  storeWalkIndex,
  wakeWaitingMembers,
} from './queue-members.repository.ts';
export {
  addQueueMembers,
  getQueueForDialing,
  getQueueSummary,
  getWalkedQueue,
  lockQueue,
  lockQueueIfAny,
} from './queues.repository.ts';
export { QUEUE_FILL_TASK, queueFillTask } from './queue-fill.ts';
export { saveDialingSettings } from './dialing-settings.repository.ts';
export {
  ensureDefaultQueue,
  joinDefaultQueue,
  queueBatchMatches,
  queueImportedRows,
  queueMissingSyncedContacts,
} from './default-queue.repository.ts';
