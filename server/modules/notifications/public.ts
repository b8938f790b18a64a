/** Notifications as other modules use them: queuing a callback's announcement with the disposition that sets it. Other modules import this file, never the module's other files (decision 013). */
export { scheduleCallbackNotice } from './callback-due.task.ts';
