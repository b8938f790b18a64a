import { describe, expect, it } from 'vitest';
import {
  deliveryMovesForward,
  SMS_SKIP_REASONS,
  smsFor,
  smsSkipReason,
  type SmsDelivery,
} from '../campaigns/sms-campaign.schema.ts';
import { smsKeyword } from './sms-keywords.ts';
import { renderSms, SMS_MAX_LENGTH, smsSegments } from './sms-text.ts';

describe('what a reply means', () => {
  it.each([
    ['STOP', 'stop'],
    ['stop', 'stop'],
    ['  Stop \n', 'stop'],
    ['STOPALL', 'stop'],
    ['unsubscribe', 'stop'],
    ['Cancel', 'stop'],
    ['END', 'stop'],
    ['quit', 'stop'],
    ['START', 'start'],
    ['unstop', 'start'],
    ['help', 'help'],
    [' HELP ', 'help'],
    ['stop please', null],
    ['STOP!', null],
    ['Yes', null],
    ['', null],
    ['Please help me', null],
  ] as const)('%j is %s', (body, meaning) => {
    expect(smsKeyword(body)).toBe(meaning);
  });
});

describe('segments a provider bills', () => {
  const gsm = (n: number) => 'a'.repeat(n);
  const unicode = (n: number) => 'ж'.repeat(n);
  it.each([
    ['nothing', '', 0],
    ['one GSM character', gsm(1), 1],
    ['160 GSM characters', gsm(160), 1],
    ['161 GSM characters', gsm(161), 2],
    ['306 GSM characters', gsm(306), 2],
    ['307 GSM characters', gsm(307), 3],
    ['GSM accents (é, ü) stay GSM', 'é'.repeat(160), 1],
    ['the euro sign is GSM', '€'.repeat(160), 1],
    ['70 other characters', unicode(70), 1],
    ['71 other characters', unicode(71), 2],
    ['134 other characters', unicode(134), 2],
    ['135 other characters', unicode(135), 3],
    ['one non-GSM character makes the whole text Unicode', `${gsm(100)}ж`, 2],
  ])('%s: %i', (_what, text, segments) => {
    expect(smsSegments(text)).toBe(segments);
  });
});

describe('delivery reports move forward only', () => {
  const order: (SmsDelivery | null)[] = [null, 'queued', 'sent', 'delivered'];
  it.each([
    [null, 'queued', true],
    [null, 'delivered', true],
    ['queued', 'sent', true],
    ['queued', 'queued', false],
    ['sent', 'queued', false],
    ['sent', 'delivered', true],
    ['sent', 'undelivered', true],
    ['sent', 'failed', true],
    ['delivered', 'sent', false],
    ['delivered', 'undelivered', false],
    ['undelivered', 'delivered', false],
    ['failed', 'delivered', false],
  ] as const)('%s → %s: %s', (from, to, moves) => {
    expect(deliveryMovesForward(from, to)).toBe(moves);
  });
  it('never moves back along queued, sent, delivered', () => {
    for (const [i, from] of order.entries())
      for (const to of order.slice(1, i + 1)) expect(deliveryMovesForward(from, to!)).toBe(false);
  });
});

describe('whether a recipient gets the text', () => {
  const facts = { contactExists: true, phone: '+15550100017', optedOut: false, doNotCall: false, text: 'Hi' };
  it.each([
    ['a callable number', {}, null],
    ['a deleted contact', { contactExists: false }, SMS_SKIP_REASONS.deleted],
    ['no number', { phone: null }, SMS_SKIP_REASONS.noPhone],
    ['an opted-out number', { optedOut: true }, SMS_SKIP_REASONS.optedOut],
    ['a do-not-call number', { doNotCall: true }, SMS_SKIP_REASONS.doNotCall],
    ['a text at the limit', { text: 'x'.repeat(SMS_MAX_LENGTH) }, null],
    ['a text past the limit', { text: 'x'.repeat(SMS_MAX_LENGTH + 1) }, SMS_SKIP_REASONS.tooLong],
    [
      'deleted wins over everything',
      { contactExists: false, phone: null, optedOut: true },
      SMS_SKIP_REASONS.deleted,
    ],
    ['no number wins over opted out', { phone: null, optedOut: true }, SMS_SKIP_REASONS.noPhone],
    ['opted out wins over do-not-call', { optedOut: true, doNotCall: true }, SMS_SKIP_REASONS.optedOut],
  ])('%s', (_what, change, reason) => {
    expect(smsSkipReason({ ...facts, ...change })).toBe(reason);
  });

  it('checks the length of the text as merged for the contact, not as written', () => {
    const contact = {
      firstName: 'Ann',
      lastName: 'Able',
      email: '',
      phone: '+15550100017',
      company: 'C'.repeat(200),
      title: null,
    };
    const message = '{{company}}'.repeat(145);
    expect(message.length).toBeLessThan(SMS_MAX_LENGTH);
    const long = smsFor(message, contact, { phone: contact.phone, optedOut: false, doNotCall: false });
    expect(long.text).toHaveLength(29_000);
    expect(long.skip).toBe(SMS_SKIP_REASONS.tooLong);
    const short = smsFor('Hi {{firstName}} ', contact, {
      phone: contact.phone,
      optedOut: false,
      doNotCall: false,
    });
    expect(short).toEqual({ text: 'Hi Ann', skip: null });
    expect(renderSms('  {{fullName}}  ', contact)).toBe('Ann Able');
  });
});
