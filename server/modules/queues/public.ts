/** Call queues as the other modules use them: completing a contact of a queue being walked when its disposition is saved, adding a contact made while walking one. Other modules import this file, never the module's other files (decision 013). */
export { completeMembers as completeQueueMembers, storeWalkIndex } from './queue-walk.repository.ts';
export { addQueueMembers, lockQueueIfAny } from './queues.repository.ts';
