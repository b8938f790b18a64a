/** Campaigns as the other modules use them: the jobs that send an e-mail campaign or sequence and an SMS campaign, contacts joining a sequence (the dialer's Add Contact) and leaving sequences (a disposition that says stop). Other modules import this file, never the module's other files (decision 013). */
export { EMAIL_CAMPAIGN_TASK, SMS_CAMPAIGN_TASK } from './campaign-schedule.ts';
export { campaignSendTask } from './email-campaign-send.ts';
export { smsSendTask } from './sms-campaign-send.ts';
export { leaveSequences } from './email-sequences.repository.ts';
export { enrollContact } from './email-sequence-enrolment.ts';
