import { describe, expect, it } from 'vitest';
import {
  decideReach,
  localTimeLine,
  nextOpening,
  type ReachFacts,
  type ReachSettings,
} from './reach-decision.ts';
import { DEFAULT_CALLING_WINDOW, stateCode, stateOfGeocode, windowFor } from './calling-rules.ts';
import { consentRecordCsv, consentRecordFileName } from './consent-record.ts';

const facts = (over: Partial<ReachFacts> = {}): ReachFacts => ({
  phoneE164: '+13032961234',
  phoneValid: true,
  email: 'ann@example.com',
  zones: ['America/Denver'],
  state: 'CO',
  doNotCallSince: null,
  textOptOut: null,
  unsubscribedAt: null,
  callsLast24h: 0,
  expressConsent: null,
  ...over,
});
const settings: ReachSettings = { unknownLocalTime: 'block', timeZone: 'America/New_York' };
const at = (iso: string) => new Date(iso);

describe('calling hours in the contact’s local time', () => {
  it.each([
    // Denver is UTC-7 in November (MST), UTC-6 in July (MDT).
    [
      'a Denver contact at 7:42 am',
      '2026-11-25T14:42:00Z',
      ['America/Denver'],
      'CO',
      'Not now: it is 7:42 am in Denver (calling hours 8:00–21:00)',
    ],
    ['a Denver contact at 8:00 am', '2026-11-25T15:00:00Z', ['America/Denver'], 'CO', null],
    ['a Denver contact at 8:59 pm', '2026-11-26T03:59:00Z', ['America/Denver'], 'CO', null],
    [
      'a Denver contact at 9:00 pm',
      '2026-11-26T04:00:00Z',
      ['America/Denver'],
      'CO',
      'Not now: it is 9:00 pm in Denver (calling hours 8:00–21:00)',
    ],
    [
      'Denver in summer time at 7:30 am',
      '2026-07-01T13:30:00Z',
      ['America/Denver'],
      'CO',
      'Not now: it is 7:30 am in Denver (calling hours 8:00–21:00)',
    ],
    ['Denver in summer time at 8:30 am', '2026-07-01T14:30:00Z', ['America/Denver'], 'CO', null],
    [
      'Florida at 8:15 pm (8 pm rule)',
      '2026-11-26T01:15:00Z',
      ['America/New_York'],
      'FL',
      'Not now: it is 8:15 pm in New York (calling hours 8:00–20:00)',
    ],
    ['New York at 8:15 pm', '2026-11-26T01:15:00Z', ['America/New_York'], 'NY', null],
    [
      'Washington at 8:30 pm',
      '2026-11-26T04:30:00Z',
      ['America/Los_Angeles'],
      'WA',
      'Not now: it is 8:30 pm in Los Angeles (calling hours 8:00–20:00)',
    ],
    [
      'Oklahoma at 7:59 am',
      '2026-11-25T13:59:00Z',
      ['America/Chicago'],
      'OK',
      'Not now: it is 7:59 am in Chicago (calling hours 8:00–20:00)',
    ],
    // North Dakota's 701 spans Mountain and Central: within hours only when both are.
    [
      'a two-zone number at 8:30 Central, 7:30 Mountain',
      '2026-11-25T14:30:00Z',
      ['America/Denver', 'America/North_Dakota/Center'],
      'ND',
      'Not now: it is 7:30 am in Denver (calling hours 8:00–21:00)',
    ],
    [
      'a two-zone number at 9:30 Central, 8:30 Mountain',
      '2026-11-25T15:30:00Z',
      ['America/Denver', 'America/North_Dakota/Center'],
      'ND',
      null,
    ],
    [
      'a two-zone number at 9:30 pm Central, 8:30 pm Mountain',
      '2026-11-26T03:30:00Z',
      ['America/Denver', 'America/North_Dakota/Center'],
      'ND',
      'Not now: it is 9:30 pm in Center (calling hours 8:00–21:00)',
    ],
    ['London at 10 am', '2026-11-25T10:00:00Z', ['Europe/London'], null, null],
  ])('%s', (_name, now, zones, state, reason) => {
    const decision = decideReach('call', facts({ zones, state }), settings, at(now));
    if (reason === null) expect(decision.allowed).toBe(true);
    else expect(decision).toMatchObject({ allowed: false, code: 'outside-hours', reason });
  });

  it('says when the window opens again: 8:00 that morning, or the next day after 21:00', () => {
    const early = decideReach('call', facts(), settings, at('2026-11-25T14:42:00Z'));
    expect(early.allowed === false && early.retryAt?.toISOString()).toBe('2026-11-25T15:00:00.000Z');
    const late = decideReach('text', facts(), settings, at('2026-11-26T04:10:00Z'));
    expect(late.allowed === false && late.retryAt?.toISOString()).toBe('2026-11-26T15:00:00.000Z');
  });

  it('opens across a clock change at the new offset', () => {
    // Denver springs forward on 8 March 2026: 8:00 that morning is 14:00 UTC, not 15:00.
    expect(
      nextOpening(at('2026-03-08T08:00:00Z'), ['America/Denver'], DEFAULT_CALLING_WINDOW)?.toISOString(),
    ).toBe('2026-03-08T14:00:00.000Z');
    // And falls back on 1 November 2026: 8:00 is 15:00 UTC again.
    expect(
      nextOpening(at('2026-11-01T09:00:00Z'), ['America/Denver'], DEFAULT_CALLING_WINDOW)?.toISOString(),
    ).toBe('2026-11-01T15:00:00.000Z');
  });

  it('finds when two zones are open together', () => {
    const zones = ['America/Adak', 'America/Anchorage'];
    // Adak is an hour behind Anchorage: both open at 8:00 Adak.
    expect(nextOpening(at('2026-11-25T12:00:00Z'), zones, DEFAULT_CALLING_WINDOW)?.toISOString()).toBe(
      '2026-11-25T18:00:00.000Z',
    );
  });

  it('never opens when the zones share no hour of the window', () => {
    // Honolulu and Athens are 12 hours apart in November: an 8:00–20:00 window never holds in both.
    expect(
      nextOpening(at('2026-11-25T12:00:00Z'), ['Pacific/Honolulu', 'Europe/Athens'], { from: 480, to: 1200 }),
    ).toBeNull();
  });

  it('lets the user narrow the window, never widen it past the law', () => {
    expect(windowFor('CO', { from: 9 * 60, to: 17 * 60 })).toEqual({ from: 540, to: 1020 });
    expect(windowFor('FL', { from: 7 * 60, to: 22 * 60 })).toEqual({ from: 480, to: 1200 });
    const noon = decideReach(
      'call',
      facts(),
      { ...settings, window: { from: 600, to: 1020 } },
      at('2026-11-25T16:30:00Z'),
    );
    expect(noon).toMatchObject({
      allowed: false,
      reason: 'Not now: it is 9:30 am in Denver (calling hours 10:00–17:00)',
    });
  });
});

describe('unknown local time and numbers that cannot be placed', () => {
  it('refuses by default, and says so', () => {
    expect(decideReach('call', facts({ zones: null }), settings, at('2026-11-25T18:00:00Z'))).toMatchObject({
      allowed: false,
      code: 'unknown-local-time',
      reason: 'Not now: this contact’s local time is unknown (set their time zone on the contact)',
    });
    expect(
      decideReach('call', facts({ phoneValid: false, zones: null }), settings, at('2026-11-25T18:00:00Z')),
    ).toMatchObject({
      code: 'invalid-phone',
      reason: 'Not a valid phone number: +13032961234',
    });
  });

  it('calls them when the user chose to, with a note', () => {
    const allow = { ...settings, unknownLocalTime: 'allow' as const };
    expect(
      decideReach('call', facts({ zones: null, phoneValid: false }), allow, at('2026-11-25T18:00:00Z')),
    ).toMatchObject({
      allowed: true,
      note: 'Local time unknown: no time zone from the number or the contact',
    });
  });
});

describe('opt-outs block the channels they name, and nothing else', () => {
  const noon = at('2026-11-25T19:00:00Z');
  const since = at('2026-11-02T15:00:00Z');
  const cases: [
    string,
    Partial<ReachFacts>,
    Record<'call' | 'text' | 'campaign-email' | 'email', string | null>,
  ][] = [
    [
      'do-not-call',
      { doNotCallSince: since },
      {
        call: 'On your do-not-call list since 11/02/2026',
        text: 'On your do-not-call list since 11/02/2026',
        'campaign-email': null,
        email: null,
      },
    ],
    [
      'STOP',
      { textOptOut: { at: since, keyword: 'STOP' } },
      { call: null, text: 'Texted STOP on 11/02/2026', 'campaign-email': null, email: null },
    ],
    [
      'unsubscribe',
      { unsubscribedAt: since },
      {
        call: null,
        text: null,
        'campaign-email': 'Unsubscribed from your e-mails on 11/02/2026',
        email: null,
      },
    ],
    [
      'no phone',
      { phoneE164: null, zones: null },
      { call: 'No phone number', text: 'No phone number', 'campaign-email': null, email: null },
    ],
    [
      'no e-mail',
      { email: '' },
      { call: null, text: null, 'campaign-email': 'No e-mail address', email: 'No e-mail address' },
    ],
  ];
  for (const [name, over, expected] of cases)
    for (const [channel, reason] of Object.entries(expected))
      it(`${name}: ${channel} ${reason ? 'refused' : 'allowed'}`, () => {
        const decision = decideReach(channel as keyof typeof expected, facts(over), settings, noon);
        if (reason) expect(decision).toMatchObject({ allowed: false, reason });
        else expect(decision.allowed).toBe(true);
      });

  it('e-mail has no hours', () => {
    expect(decideReach('campaign-email', facts(), settings, at('2026-11-25T09:00:00Z')).allowed).toBe(true);
  });
});

describe('state call limits', () => {
  const noon = at('2026-11-25T17:00:00Z');
  it.each([
    ['FL', 2, null],
    ['FL', 3, '3 calls in the last 24 h (Florida limit)'],
    ['OK', 4, '4 calls in the last 24 h (Oklahoma limit)'],
    ['NY', 9, null],
  ])('%s after %i calls', (state, calls, reason) => {
    const decision = decideReach(
      'call',
      facts({ state, zones: ['America/New_York'], callsLast24h: calls }),
      settings,
      noon,
    );
    if (reason) expect(decision).toMatchObject({ allowed: false, code: 'call-limit', reason });
    else expect(decision.allowed).toBe(true);
  });

  it('limits calls, not texts', () => {
    const f = facts({ state: 'FL', zones: ['America/New_York'], callsLast24h: 5 });
    expect(decideReach('text', f, settings, noon).allowed).toBe(true);
  });
});

describe('express consent lifts the federal hours, and nothing else', () => {
  const consent = { givenOn: '2026-11-02', source: 'web form' };
  // 10:30 pm in Denver and in New York: outside every window.
  const denverNight = at('2026-11-26T05:30:00Z');
  const newYorkNight = at('2026-11-26T03:30:00Z');
  it.each([
    [
      'a Denver contact at night',
      {},
      denverNight,
      'Express consent given 11/02/2026 (web form); federal calling hours do not apply',
    ],
    [
      'a Denver contact of unknown zone',
      { zones: null },
      denverNight,
      'Express consent given 11/02/2026 (web form); federal calling hours do not apply',
    ],
    [
      'a Florida contact at 10:30 pm (the state rule stays)',
      { state: 'FL', zones: ['America/New_York'] },
      newYorkNight,
      'Not now: it is 10:30 pm in New York (calling hours 8:00–20:00)',
    ],
    [
      'a Florida contact after 3 calls',
      { state: 'FL', zones: ['America/New_York'], callsLast24h: 3 },
      at('2026-11-25T17:00:00Z'),
      '3 calls in the last 24 h (Florida limit)',
    ],
    [
      'on the do-not-call list',
      { doNotCallSince: at('2026-11-03T15:00:00Z') },
      at('2026-11-25T19:00:00Z'),
      'On your do-not-call list since 11/03/2026',
    ],
  ])('%s', (_name, over, now, expected) => {
    const decision = decideReach('call', facts({ ...over, expressConsent: consent }), settings, now);
    if (decision.allowed) expect(decision.note).toBe(expected);
    else expect(decision.reason).toBe(expected);
  });

  it('never over a STOP for texts, and the user’s own window stays', () => {
    const stopped = facts({
      expressConsent: consent,
      textOptOut: { at: at('2026-11-04T15:00:00Z'), keyword: 'STOP' },
    });
    expect(decideReach('text', stopped, settings, at('2026-11-25T19:00:00Z'))).toMatchObject({
      allowed: false,
      reason: 'Texted STOP on 11/04/2026',
    });
    const narrowed = { ...settings, window: { from: 9 * 60, to: 17 * 60 } };
    expect(decideReach('call', facts({ expressConsent: consent }), narrowed, denverNight)).toMatchObject({
      allowed: false,
      reason: 'Not now: it is 10:30 pm in Denver (calling hours 9:00–17:00)',
    });
  });

  it('within a state’s hours, the decision still names the consent', () => {
    expect(
      decideReach(
        'text',
        facts({ expressConsent: consent, state: 'FL', zones: ['America/New_York'] }),
        settings,
        at('2026-11-25T17:00:00Z'),
      ),
    ).toMatchObject({ allowed: true, note: 'Express consent given 11/02/2026 (web form)' });
  });

  it('the window without the federal rule is the state’s and the user’s, or none', () => {
    expect(windowFor('CO', null, true)).toBeNull();
    expect(windowFor('FL', null, true)).toEqual({ from: 480, to: 1200 });
    expect(windowFor('CO', { from: 600, to: 1380 }, true)).toEqual({ from: 600, to: 1380 });
    expect(windowFor('CO', { from: 600, to: 1380 }, false)).toEqual({ from: 600, to: 1260 });
  });
});

describe('states and local time', () => {
  it.each([
    ['fl', 'FL'],
    ['Florida', 'FL'],
    ['washington', 'WA'],
    ['Ontario', null],
    ['', null],
  ])('reads the state %s as %s', (raw, code) => expect(stateCode(raw)).toBe(code));

  it.each([
    ['Colorado', 'CO'],
    ['Denver, CO', 'CO'],
    ['Washington State', 'WA'],
    ['Washington D.C.', 'DC'],
    ['Manitoba', null],
    [null, null],
  ])('reads the geocode %s as %s', (geocode, code) => expect(stateOfGeocode(geocode)).toBe(code));

  it('writes the local time as the contact page shows it', () => {
    expect(localTimeLine(['America/Denver'], at('2026-11-25T14:42:00Z'))).toBe('7:42 am, America/Denver');
    expect(localTimeLine(null, at('2026-11-25T14:42:00Z'))).toBeNull();
  });
});

describe('the consent record as CSV', () => {
  it('lists the standing opt-outs, then every entry with its facts, escaping what a spreadsheet would run', () => {
    const csv = consentRecordCsv({
      standing: {
        doNotCallSince: '2026-11-02T15:00:00.000Z',
        textOptOutSince: null,
        unsubscribedSince: null,
        expressConsent: { givenOn: '2026-10-30', source: 'web form', recordedAt: '2026-11-01T10:00:00.000Z' },
      },
      entries: [
        {
          at: '2026-11-25T14:42:00.000Z',
          channel: 'call',
          outcome: 'refused',
          reason: 'Not now: it is 7:42 am in Denver (calling hours 8:00–21:00)',
          number: '+13032961237',
          facts: { zones: ['America/Denver'], state: 'CO' },
        },
        {
          at: '2026-11-25T15:00:00.000Z',
          channel: 'text',
          outcome: 'allowed',
          reason: '=HYPERLINK("x")',
          number: null,
          facts: {},
        },
      ],
    });
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('When (UTC),Channel,Outcome,Reason,Number,Time zones,State,Facts');
    expect(lines[1]).toBe(
      '2026-11-02T15:00:00.000Z,Call,Opted out,On the do-not-call list (standing now),,,,',
    );
    expect(lines[2]).toBe(
      '2026-11-01T10:00:00.000Z,Call and text,Opted in,Express consent given 10/30/2026 (web form) (standing now),,,,',
    );
    expect(lines[3]).toBe(
      `2026-11-25T14:42:00.000Z,Call,Refused,Not now: it is 7:42 am in Denver (calling hours 8:00–21:00),'+13032961237,America/Denver,CO,"{""zones"":[""America/Denver""],""state"":""CO""}"`,
    );
    expect(lines[4]).toBe(`2026-11-25T15:00:00.000Z,Text,Allowed,"'=HYPERLINK(""x"")",,,,{}`);
  });

  it('names the file after the contact and the day', () => {
    expect(consentRecordFileName('Ann O’Neil', new Date('2026-11-25T10:00:00Z'))).toBe(
      'consent_record_Ann_O_Neil_2026-11-25.csv',
    );
  });
});

describe('an abandoned number waits 72 hours (Ofcom persistent misuse, A1.78)', () => {
  const noon = at('2026-11-25T17:00:00Z');
  it.each([
    [
      'abandoned an hour ago',
      '2026-11-25T16:00:00Z',
      'Abandoned call on 11/25/2026: not dialled again before 11:00 am on 11/28/2026',
    ],
    [
      'abandoned 71 h 59 min ago',
      '2026-11-22T17:01:00Z',
      'Abandoned call on 11/22/2026: not dialled again before 12:01 pm on 11/25/2026',
    ],
    ['abandoned exactly 72 h ago', '2026-11-22T17:00:00Z', null],
    ['never abandoned', null, null],
  ])('%s', (_name, abandoned, reason) => {
    const decision = decideReach(
      'call',
      facts({ abandonedAt: abandoned ? at(abandoned) : null }),
      settings,
      noon,
    );
    if (reason) {
      expect(decision).toMatchObject({ allowed: false, code: 'abandoned', reason });
      expect(decision.allowed || decision.retryAt?.toISOString()).toBe(
        new Date(at(abandoned).getTime() + 72 * 3600_000).toISOString(),
      );
    } else expect(decision.allowed).toBe(true);
  });

  it('holds calls, not texts, and comes before calling hours (its wait is the longer one)', () => {
    const f = facts({ abandonedAt: at('2026-11-25T16:00:00Z') });
    expect(decideReach('text', f, settings, noon).allowed).toBe(true);
    const night = decideReach('call', f, settings, at('2026-11-26T06:00:00Z'));
    expect(night).toMatchObject({ allowed: false, code: 'abandoned' });
  });
});

describe('a prerecorded message (voicemail drop) needs the contact’s express consent', () => {
  const noon = at('2026-11-25T19:00:00Z');
  const consent = { givenOn: '2026-10-01', source: 'web form' };
  const noConsent =
    'No voicemail drop: a prerecorded message needs the contact’s prior express consent (47 CFR 64.1200(a)(2) and (a)(3)). Record their consent on the contact first.';
  it.each<[string, Partial<ReachFacts>, string | null]>([
    ['with express consent', { expressConsent: consent }, null],
    ['without consent', {}, noConsent],
    [
      'with consent but on the do-not-call list',
      { expressConsent: consent, doNotCallSince: at('2026-11-02T15:00:00Z') },
      'On your do-not-call list since 11/02/2026',
    ],
    // The call was placed under its own limits: a Florida number's third call today may still take the message.
    [
      'with consent, a Florida number at its daily limit',
      { expressConsent: consent, state: 'FL', zones: ['America/New_York'], callsLast24h: 3 },
      null,
    ],
    [
      'with consent, abandoned by a dialer yesterday',
      { expressConsent: consent, abandonedAt: at('2026-11-24T19:00:00Z') },
      null,
    ],
    [
      'without consent, texted STOP (calls unaffected)',
      { textOptOut: { at: noon, keyword: 'STOP' } },
      noConsent,
    ],
  ])('%s', (_name, over, reason) => {
    const decision = decideReach('prerecorded', facts(over), settings, noon);
    if (reason) expect(decision).toMatchObject({ allowed: false, reason });
    else expect(decision.allowed).toBe(true);
  });

  it('keeps to calling hours where the contact is (a consent lifts only the federal hours, not a state’s)', () => {
    const floridaLate = facts({ expressConsent: consent, state: 'FL', zones: ['America/New_York'] });
    expect(decideReach('prerecorded', floridaLate, settings, at('2026-11-26T01:15:00Z'))).toMatchObject({
      allowed: false,
      code: 'outside-hours',
    });
  });
});
