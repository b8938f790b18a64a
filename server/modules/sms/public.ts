/** SMS replies as other modules use them: whether a number opted out of a user's texts. Other modules import this file, never the module's other files (decision 013). */
export { isSmsOptedOut } from './sms-inbound.repository.ts';
