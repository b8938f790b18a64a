import { describe, expect, it } from 'vitest';
import {
  salesforceAuthorizeUrl,
  salesforceImportQuery,
  salesforceMatchQueries,
  salesforcePhoneVariants,
  salesforceRecordCells,
  salesforceRetryable,
  SalesforceImportSchema,
  salesforceTaskBody,
  salesforceTokenForm,
  salesforceWords,
  soqlString,
} from './salesforce.ts';

describe('Salesforce OAuth', () => {
  it('sends the browser to the authorize endpoint with PKCE and a state', () => {
    const url = new URL(
      salesforceAuthorizeUrl({
        loginUrl: 'https://login.salesforce.com/',
        clientId: 'key',
        redirectUri: 'https://crm.example/api/salesforce/callback',
        state: 'st4te',
        codeChallenge: 'chal',
      }),
    );
    expect(url.origin + url.pathname).toBe('https://login.salesforce.com/services/oauth2/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'key',
      redirect_uri: 'https://crm.example/api/salesforce/callback',
      scope: 'api refresh_token',
      state: 'st4te',
      code_challenge: 'chal',
      code_challenge_method: 'S256',
      prompt: 'login consent',
    });
  });

  it.each([
    [
      { kind: 'code' as const, code: 'c0de', codeVerifier: 'v', redirectUri: 'https://crm.example/cb' },
      {
        grant_type: 'authorization_code',
        code: 'c0de',
        code_verifier: 'v',
        redirect_uri: 'https://crm.example/cb',
      },
    ],
    [
      { kind: 'refresh' as const, refreshToken: 'r' },
      { grant_type: 'refresh_token', refresh_token: 'r' },
    ],
  ])('token form %j', (grant, fields) =>
    expect(Object.fromEntries(salesforceTokenForm(grant, { clientId: 'key', clientSecret: 's' }))).toEqual({
      ...fields,
      client_id: 'key',
      client_secret: 's',
    }),
  );
});

describe('Salesforce records as import rows', () => {
  it.each([
    [
      {
        FirstName: 'Ada',
        LastName: 'Byron',
        Email: 'a@x.example',
        Phone: null,
        MobilePhone: '+1303',
        Company: 'Engines',
        Title: 'CTO',
        Website: 'x.example',
      },
      ['Ada', 'Byron', 'a@x.example', '+1303', 'Engines', 'CTO', 'x.example'],
    ],
    [
      {
        FirstName: 'Bo',
        LastName: 'C',
        Email: null,
        Phone: '303',
        Account: { Name: 'Acme', Website: 'acme.example' },
      },
      ['Bo', 'C', '', '303', 'Acme', '', 'acme.example'],
    ],
    [{ FirstName: null, LastName: 'Only', Account: null }, ['', 'Only', '', '', '', '', '']],
  ])('%j', (record, cells) => expect(salesforceRecordCells(record)).toEqual(cells));

  it('reads open Leads and all Contacts', () => {
    expect(salesforceImportQuery('Lead')).toMatch(/FROM Lead WHERE IsConverted = false/);
    expect(salesforceImportQuery('Contact')).toMatch(/Account\.Name.*FROM Contact/);
  });
});

describe('finding the Lead or Contact of a call', () => {
  it.each([
    ["o'brien@x.example", "'o\\'brien@x.example'"],
    ['back\\slash', "'back\\\\slash'"],
  ])('quotes %s as %s', (value, quoted) => expect(soqlString(value)).toBe(quoted));

  it('asks for a Contact first, then an open Lead, by e-mail or phone', () => {
    expect(salesforceMatchQueries(null, null)).toEqual([]);
    const phones = "('+13035550100', '+1 303 555 0100', '(303) 555-0100', '3035550100', '303-555-0100')";
    expect(salesforceMatchQueries('Ada@X.example', '+13035550100')).toEqual([
      `SELECT Id FROM Contact WHERE Email = 'ada@x.example' OR Phone IN ${phones} OR MobilePhone IN ${phones} LIMIT 1`,
      `SELECT Id FROM Lead WHERE IsConverted = false AND (Email = 'ada@x.example' OR Phone IN ${phones} OR MobilePhone IN ${phones}) LIMIT 1`,
    ]);
    expect(salesforceMatchQueries(null, '+442079460000')[0]).toBe(
      "SELECT Id FROM Contact WHERE Phone IN ('+442079460000', '+44 20 7946 0000', '020 7946 0000', '2079460000') OR MobilePhone IN ('+442079460000', '+44 20 7946 0000', '020 7946 0000', '2079460000') LIMIT 1",
    );
  });

  it.each([
    ['+13035550100', ['+13035550100', '+1 303 555 0100', '(303) 555-0100', '3035550100', '303-555-0100']],
    ['+33612345678', ['+33612345678', '+33 6 12 34 56 78', '06 12 34 56 78', '612345678']],
    ['not a number', ['not a number']],
  ])('types %s the ways people do', (e164, variants) =>
    expect(salesforcePhoneVariants(e164)).toEqual(variants),
  );
});

describe('a call as a completed Task', () => {
  it('carries the outcome, notes, direction and duration on the Lead or Contact', () => {
    expect(
      salesforceTaskBody(
        {
          dispositionLabel: 'Qualified Lead',
          notes: 'Demo Friday',
          calledAt: new Date('2026-11-22T02:30:00Z'),
          timeZone: 'America/New_York',
          contactName: 'Ada',
          call: { direction: 'outbound', durationSeconds: 95.6 },
        },
        '00Q000000000001',
      ),
    ).toEqual({
      WhoId: '00Q000000000001',
      Subject: 'Call: Qualified Lead',
      Status: 'Completed',
      TaskSubtype: 'Call',
      Type: 'Call',
      ActivityDate: '2026-11-21',
      CallType: 'Outbound',
      CallDisposition: 'Qualified Lead',
      CallDurationInSeconds: 96,
      Description: 'Outcome: Qualified Lead\n\nDemo Friday',
    });
  });
});

describe("Salesforce's answers", () => {
  it.each([
    [
      401,
      '[{"message":"Session expired or invalid","errorCode":"INVALID_SESSION_ID"}]',
      'Salesforce answered 401: INVALID_SESSION_ID: Session expired or invalid',
    ],
    [
      400,
      '{"error":"invalid_grant","error_description":"expired access/refresh token"}',
      'Salesforce answered 400: invalid_grant: expired access/refresh token',
    ],
    [503, 'Service  Unavailable', 'Salesforce answered 503: Service Unavailable'],
    [500, '[]', 'Salesforce answered 500'],
  ])('%i %s', (status, body, words) => expect(salesforceWords(status, body)).toBe(words));
});

describe('which failures are tried again', () => {
  it.each([
    [null, 'Salesforce could not be reached: fetch failed', true],
    [503, 'Salesforce answered 503', true],
    [429, 'Salesforce answered 429', true],
    [403, 'Salesforce answered 403: REQUEST_LIMIT_EXCEEDED: TotalRequests Limit exceeded.', true],
    [403, 'Salesforce answered 403: INSUFFICIENT_ACCESS: insufficient access rights on object id', false],
    [401, 'Salesforce answered 401: INVALID_SESSION_ID: Session expired or invalid', false],
    [400, 'Salesforce answered 400: FIELD_INTEGRITY_EXCEPTION: bad value', false],
  ])('%s %s → %s', (status, words, retry) => expect(salesforceRetryable(status, words)).toBe(retry));
});

describe('an import request', () => {
  it('imports both kinds by default, each once, Leads first', () => {
    expect(SalesforceImportSchema.parse({})).toEqual({ duplicates: 'skip', objects: ['Lead', 'Contact'] });
    expect(SalesforceImportSchema.parse({ objects: ['Contact', 'Lead'] }).objects).toEqual([
      'Lead',
      'Contact',
    ]);
    expect(SalesforceImportSchema.parse({ objects: ['Contact'] }).objects).toEqual(['Contact']);
  });
  it('refuses nothing to import and unknown objects', () => {
    expect(SalesforceImportSchema.safeParse({ objects: [] }).error?.issues[0]?.message).toBe(
      'Choose Leads, Contacts or both.',
    );
    expect(SalesforceImportSchema.safeParse({ objects: ['Account'] }).success).toBe(false);
  });
});
