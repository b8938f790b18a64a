/**
 * What a reply to one of our numbers means, as carriers read it: STOP and its fellows opt the number out of every
 * message from us, START and UNSTOP opt it back in, HELP asks who we are. Any case; spaces around the word are
 * ignored; any other text is just a reply.
 */
const STOP_WORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'];
const START_WORDS = ['START', 'UNSTOP'];
export type SmsKeyword = 'stop' | 'start' | 'help';

export function smsKeyword(body: string): SmsKeyword | null {
  const word = body.trim().toUpperCase();
  if (STOP_WORDS.includes(word)) return 'stop';
  if (START_WORDS.includes(word)) return 'start';
  if (word === 'HELP') return 'help';
  return null;
}

/**
 * The answer to HELP. STOP and START are not answered by us: the provider's own opt-out handling confirms them, and a
 * message to a number that just opted out would be refused (docs/decisions/019-sms-campaigns.md).
 */
export const SMS_REPLIES = {
  help: 'CallCRM: you get these messages from a sales team using CallCRM. Reply STOP to stop them, START to get them again.',
} as const;
