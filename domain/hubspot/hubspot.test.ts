import { describe, expect, it } from 'vitest';
import {
  HUBSPOT_CALL_OUTCOMES,
  hubspotCallBody,
  hubspotContactCells,
  hubspotContactSearch,
  hubspotRetryable,
  hubspotWords,
  type LoggedCall,
} from './hubspot.ts';

const logged = (over: Partial<LoggedCall> = {}): LoggedCall => ({
  disposition: 'answered',
  dispositionLabel: 'Answered',
  notes: null,
  calledAt: new Date('2026-11-21T09:30:00Z'),
  contactName: 'Ada Byron',
  call: null,
  ...over,
});

describe('HubSpot contacts as import rows', () => {
  it.each([
    [
      { firstname: ' Ada ', lastname: 'Byron', email: 'ada@x.example' },
      ['Ada', 'Byron', 'ada@x.example', '', '', '', ''],
    ],
    [{ firstname: 'Bo', phone: '', mobilephone: '+13035550100' }, ['Bo', '', '', '+13035550100', '', '', '']],
    [
      { firstname: 'Cy', phone: '303-555-0101', mobilephone: '+13035550100' },
      ['Cy', '', '', '303-555-0101', '', '', ''],
    ],
    [
      { firstname: null, company: 'Spot', jobtitle: 'Buyer', website: 'spot.example' },
      ['', '', '', '', 'Spot', 'Buyer', 'spot.example'],
    ],
  ])('%j → %j', (properties, cells) => expect(hubspotContactCells(properties)).toEqual(cells));
});

describe('a saved outcome as a HubSpot call', () => {
  it.each([
    ['no-answer', HUBSPOT_CALL_OUTCOMES.noAnswer],
    ['busy', HUBSPOT_CALL_OUTCOMES.busy],
    ['voicemail', HUBSPOT_CALL_OUTCOMES.leftVoicemail],
    ['answered', HUBSPOT_CALL_OUTCOMES.connected],
    ['qualified', HUBSPOT_CALL_OUTCOMES.connected],
    ['do-not-call', HUBSPOT_CALL_OUTCOMES.connected],
  ])('%s is logged with HubSpot outcome %s', (disposition, outcome) =>
    expect(hubspotCallBody(logged({ disposition }), '501').properties.hs_call_disposition).toBe(outcome),
  );

  it('carries the title, notes, the call itself and the association to the contact', () => {
    const body = hubspotCallBody(
      logged({
        notes: '  Wants a demo  ',
        call: {
          direction: 'inbound',
          status: 'no-answer',
          from: '+17205550177',
          to: '+13035550101',
          durationSeconds: 12.4,
        },
      }),
      '501',
    );
    expect(body).toEqual({
      properties: {
        hs_timestamp: '2026-11-21T09:30:00.000Z',
        hs_call_title: 'Call with Ada Byron: Answered',
        hs_call_body: 'Outcome: Answered\n\nWants a demo',
        hs_call_disposition: HUBSPOT_CALL_OUTCOMES.connected,
        hs_call_direction: 'INBOUND',
        hs_call_status: 'NO_ANSWER',
        hs_call_from_number: '+17205550177',
        hs_call_to_number: '+13035550101',
        hs_call_duration: '12400',
      },
      associations: [
        { to: { id: '501' }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 194 }] },
      ],
    });
  });

  it('without a call: outbound, completed, no numbers', () => {
    const { properties } = hubspotCallBody(logged({ contactName: '' }), '7');
    expect(properties).toMatchObject({
      hs_call_title: 'Call with contact: Answered',
      hs_call_direction: 'OUTBOUND',
      hs_call_status: 'COMPLETED',
    });
    expect(properties).not.toHaveProperty('hs_call_from_number');
  });
});

describe('finding the HubSpot contact', () => {
  it.each([
    [null, null, null],
    ['Ada@X.example', null, [['email', 'ada@x.example']]],
    [
      null,
      '+13035550100',
      [
        ['phone', '+13035550100'],
        ['mobilephone', '+13035550100'],
      ],
    ],
    [
      'a@x.example',
      '+1303',
      [
        ['email', 'a@x.example'],
        ['phone', '+1303'],
        ['mobilephone', '+1303'],
      ],
    ],
  ])('e-mail %s, phone %s', (email, phone, groups) => {
    const search = hubspotContactSearch(email, phone);
    if (groups === null) return expect(search).toBeNull();
    expect(search!.filterGroups.map((g) => [g.filters[0]!.propertyName, g.filters[0]!.value])).toEqual(
      groups,
    );
    expect(search!.filterGroups.every((g) => g.filters.length === 1 && g.filters[0]!.operator === 'EQ')).toBe(
      true,
    );
  });
});

describe("HubSpot's answers", () => {
  it.each([
    [
      401,
      '{"status":"error","message":"Bad token","category":"INVALID_AUTHENTICATION"}',
      'HubSpot answered 401: Bad token',
    ],
    [502, '<html> Bad   gateway </html>', 'HubSpot answered 502: <html> Bad gateway </html>'],
    [500, '', 'HubSpot answered 500'],
    [400, '{"status":"error"}', 'HubSpot answered 400'],
  ])('%i %s', (status, body, words) => expect(hubspotWords(status, body)).toBe(words));

  it.each([
    [null, true],
    [429, true],
    [500, true],
    [503, true],
    [400, false],
    [401, false],
    [404, false],
  ])('status %s is tried again: %s', (status, again) => expect(hubspotRetryable(status)).toBe(again));
});
