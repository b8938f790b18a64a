/** Call queues as the other modules use them: completing a contact of a queue being walked when its disposition is saved, adding a contact made while walking one, and the job that adds a large selection in the background. Other modules import this file, never the module's other files (decision 013). */
export { completeMembers as completeQueueMembers, storeWalkIndex } from './queue-walk.repository.ts';
export { addQueueMembers, lockQueueIfAny } from './queues.repository.ts';
export { QUEUE_FILL_TASK, queueFillTask } from './queue-fill.ts';
