/** SMS replies as other modules use them. Other modules import this file, never the module's other files (decision 013). */
export { applyInboundSms } from './sms-inbound.service.ts';
