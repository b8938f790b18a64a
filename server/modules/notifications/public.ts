/** Notifications as other modules use them: making one (notify_user's rules). Other modules import this file, never the module's other files (decision 013). */
export { notifyUser } from './notifications.repository.ts';
