import { describe, expect, it } from 'vitest';
import {
  escapeMrkdwn,
  isPermanentSlackFailure,
  noticeMessage,
  qualifiedLeadMessage,
  slackDestination,
} from './slack-messages.ts';

const APP = 'https://crm.example.com';

describe('slackDestination', () => {
  it.each([
    ['https://hooks.slack.com/services/T000/B000/XXXX', 'hooks.slack.com/services/T000/B000/…'],
    ['https://chat.example.com/hooks/abc123', 'chat.example.com/hooks/…'],
    ['https://chat.example.com/abc123', 'chat.example.com/…'],
  ])('%s → %s', (url, shown) => {
    expect(slackDestination(url)).toBe(shown);
  });
});

describe('messages', () => {
  it('a qualified lead names the contact, links to them, and escapes what the user typed', () => {
    const message = qualifiedLeadMessage(
      {
        contactId: 'c1',
        name: 'Ada <Byron>',
        company: 'A & B',
        phone: '(720) 555-0177',
        email: null,
        notes: 'Line one\nLine two',
      },
      APP,
    );
    expect(message.text).toBe('Qualified lead: Ada <Byron>');
    const text = JSON.stringify(message.blocks);
    expect(text).toContain('<https://crm.example.com/contacts/c1|Ada &lt;Byron&gt;>');
    expect(text).toContain('A &amp; B · (720) 555-0177');
    expect(text).toContain('> Line one\\n> Line two');
  });

  it('a notice links its title when it has a link', () => {
    const message = noticeMessage(
      'campaign-failed',
      { title: 'Campaign paused', body: 'The mail server refused: 550', link: '/campaigns/x' },
      APP,
    );
    expect(JSON.stringify(message.blocks)).toContain(
      ':warning: *<https://crm.example.com/campaigns/x|Campaign paused>*',
    );
    expect(
      noticeMessage('missed-call', { title: 'Missed call', body: 'From Bob', link: null }, APP).text,
    ).toBe('Missed call');
  });

  it('escapes the three characters Slack reads as markup', () => {
    expect(escapeMrkdwn('<a> & <b>')).toBe('&lt;a&gt; &amp; &lt;b&gt;');
  });
});

describe('isPermanentSlackFailure', () => {
  it.each([
    [400, true],
    [403, true],
    [404, true],
    [410, true],
    [408, false],
    [429, false],
    [500, false],
    [503, false],
  ])('%i → %s', (status, permanent) => {
    expect(isPermanentSlackFailure(status)).toBe(permanent);
  });
});
