/** Campaigns as the other modules use them: the jobs that send e-mail and SMS campaigns, contacts joining a sequence (the dialer's Add Contact) and leaving sequences (a disposition that says stop), and what a number's reply does to the texts it was sent. Other modules import this file, never the module's other files (decision 013). */
export { SEND_TASKS } from './campaign-schedule.ts';
export { sendTask } from './campaign-send.ts';
export { emailSending } from './email-sending.ts';
export { smsSending } from './sms-sending.ts';
export { leaveSequences } from './email-sequences.repository.ts';
export { enrollContact } from './email-sequence-enrolment.ts';
export { recordSmsReply, skipOptedOutNumber } from './sms-recipient-events.repository.ts';
