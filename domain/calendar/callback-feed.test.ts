import { describe, expect, it } from 'vitest';
import { callbackEvent, type FeedCallback } from './callback-feed.ts';

const base: FeedCallback = {
  id: 'd1',
  contactId: 'c1',
  at: new Date('2026-12-01T15:30:00Z'),
  firstName: 'Ada',
  lastName: 'Byron',
  phone: '+1 (720) 555-0177',
  company: 'Analytical Engines',
  notes: 'Wants the annual plan quote',
};

describe('a callback as a calendar event', () => {
  it.each([
    ['named for the contact', {}, 'Call back Ada Byron'],
    [
      'for the number when the contact has no name',
      { firstName: '', lastName: '' },
      'Call back +1 (720) 555-0177',
    ],
    [
      'for a contact when there is neither',
      { firstName: '', lastName: '', phone: null },
      'Call back a contact',
    ],
  ])('is %s', (_, change, summary) => {
    expect(callbackEvent({ ...base, ...change }, 'https://crm.example').summary).toBe(summary);
  });

  it('lasts 15 minutes from the callback time, keeps a stable id, and links back to the contact', () => {
    const event = callbackEvent(base, 'https://crm.example/');
    expect(event).toMatchObject({
      uid: 'callback-d1@callcrm',
      start: new Date('2026-12-01T15:30:00Z'),
      end: new Date('2026-12-01T15:45:00Z'),
      url: 'https://crm.example/contacts/c1',
    });
    expect(event.description).toBe(
      'Call +1 (720) 555-0177\nCompany: Analytical Engines\nNotes: Wants the annual plan quote\n' +
        'Open in CallCRM: https://crm.example/contacts/c1',
    );
  });

  it('leaves out what the contact does not have', () => {
    const event = callbackEvent({ ...base, phone: null, company: null, notes: null }, 'https://crm.example');
    expect(event.description).toBe(
      'No phone number on the contact\nOpen in CallCRM: https://crm.example/contacts/c1',
    );
  });
});
