/**
 * The consent gate as other modules use it (docs/decisions/023-consent-gate.md): whether a contact or a number may
 * be reached on a channel now, and why not; and the one way opt-outs are recorded. No other module reads or writes
 * do_not_call, sms_opt_outs or email_unsubscribes. Other modules import this file, never the module's other files.
 */
export {
  decideForContact,
  decideForContacts,
  decideForNumber,
  optOutsOfContact,
  putOnDoNotCall,
  recordDecisions,
  reachSettingsOf,
  type DecisionLine,
  type Reach,
} from './consent.service.ts';
export { insertUnsubscribe, unsubscribedAt } from './email-unsubscribes.repository.ts';
export {
  insertOptOut as recordTextOptOut,
  deleteOptOut as recordTextOptIn,
} from './text-opt-outs.repository.ts';
