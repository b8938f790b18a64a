import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import { CrmSyncStateSchema } from '../integrations/crm-sync.ts';
import { DuplicateModeSchema, type ImportField } from '../contacts/contact-import.ts';

/**
 * Salesforce (decision 037): what is asked of Salesforce and read from it, pure. OAuth 2.0 web server flow with PKCE
 * against the login host, then REST sObjects on the org's instance.
 */

export const SALESFORCE_API_VERSION = 'v60.0';
/** Where users sign in; a sandbox org uses https://test.salesforce.com. */
export const SALESFORCE_LOGIN_URL = 'https://login.salesforce.com';
/** What the connection asks for: the REST API, and a refresh token to keep it. */
export const SALESFORCE_SCOPES = 'api refresh_token';

/** The address the user's browser is sent to, to let this app reach their org. */
export function salesforceAuthorizeUrl(params: {
  loginUrl: string;
  clientId: string;
  redirectUri: string;
  state: string;
  codeChallenge: string;
}): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: params.clientId,
    redirect_uri: params.redirectUri,
    scope: SALESFORCE_SCOPES,
    state: params.state,
    code_challenge: params.codeChallenge,
    code_challenge_method: 'S256',
    prompt: 'login consent',
  });
  return `${params.loginUrl.replace(/\/$/, '')}/services/oauth2/authorize?${query.toString()}`;
}

/** The form posted to /services/oauth2/token to exchange the code (with the PKCE verifier) or refresh. */
export function salesforceTokenForm(
  grant:
    | { kind: 'code'; code: string; codeVerifier: string; redirectUri: string }
    | { kind: 'refresh'; refreshToken: string },
  client: { clientId: string; clientSecret: string },
): URLSearchParams {
  return new URLSearchParams(
    grant.kind === 'code'
      ? {
          grant_type: 'authorization_code',
          code: grant.code,
          code_verifier: grant.codeVerifier,
          redirect_uri: grant.redirectUri,
          client_id: client.clientId,
          client_secret: client.clientSecret,
        }
      : {
          grant_type: 'refresh_token',
          refresh_token: grant.refreshToken,
          client_id: client.clientId,
          client_secret: client.clientSecret,
        },
  );
}

/** The fields read from Leads and Contacts on import, and the product's field each fills (an import row's order). */
export const SALESFORCE_IMPORT_MAPPING: ImportField[] = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'company',
  'title',
  'website',
];
const LEAD_FIELDS = 'Id, FirstName, LastName, Email, Phone, MobilePhone, Company, Title, Website';
const CONTACT_FIELDS =
  'Id, FirstName, LastName, Email, Phone, MobilePhone, Account.Name, Title, Account.Website';

/** The SOQL that lists an org's Leads (not yet converted) or Contacts for an import. */
export function salesforceImportQuery(object: 'Lead' | 'Contact'): string {
  return object === 'Lead'
    ? `SELECT ${LEAD_FIELDS} FROM Lead WHERE IsConverted = false ORDER BY CreatedDate`
    : `SELECT ${CONTACT_FIELDS} FROM Contact ORDER BY CreatedDate`;
}

type SalesforceRecord = Record<string, unknown> & { Account?: Record<string, unknown> | null };

/** One Lead or Contact as an import row (the cells in SALESFORCE_IMPORT_MAPPING's order); the mobile when no phone. */
export function salesforceRecordCells(record: SalesforceRecord): string[] {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const account = record.Account ?? {};
  return [
    text(record.FirstName),
    text(record.LastName),
    text(record.Email),
    text(record.Phone) || text(record.MobilePhone),
    text(record.Company) || text(account.Name),
    text(record.Title),
    text(record.Website) || text(account.Website),
  ];
}

/** SOQL string literal: backslashes and single quotes escaped, as Salesforce documents. */
export function soqlString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * The ways a number is commonly typed into Salesforce, which keeps phone fields as entered: E.164, international,
 * national, the national digits, and 303-555-0190 style for North American numbers.
 */
export function salesforcePhoneVariants(e164: string): string[] {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return [e164];
  const national = parsed.formatNational();
  const variants = [e164, parsed.formatInternational(), national, String(parsed.nationalNumber)];
  if (parsed.countryCallingCode === '1') variants.push(national.replace(/^\((\d{3})\) /, '$1-'));
  return [...new Set(variants)];
}

/** The SOQL that finds the Contact, else the open Lead, with this e-mail or phone (Contacts first). */
export function salesforceMatchQueries(email: string | null, phone: string | null): string[] {
  const phones = phone ? salesforcePhoneVariants(phone).map(soqlString).join(', ') : '';
  const conditions = [
    ...(email ? [`Email = ${soqlString(email.toLowerCase())}`] : []),
    ...(phone ? [`Phone IN (${phones})`, `MobilePhone IN (${phones})`] : []),
  ];
  if (conditions.length === 0) return [];
  const where = conditions.join(' OR ');
  return [
    `SELECT Id FROM Contact WHERE ${where} LIMIT 1`,
    `SELECT Id FROM Lead WHERE IsConverted = false AND (${where}) LIMIT 1`,
  ];
}

export type SalesforceLoggedCall = {
  dispositionLabel: string;
  notes: string | null;
  calledAt: Date;
  /** The user's time zone: a Task's ActivityDate is a day, the one the call was made on where the user is. */
  timeZone: string;
  contactName: string;
  call: { direction: 'outbound' | 'inbound'; durationSeconds: number | null } | null;
};

/** A completed call Task on the Lead or Contact (its id is the WhoId), as POST /sobjects/Task takes it. */
export function salesforceTaskBody(logged: SalesforceLoggedCall, whoId: string) {
  const description = [`Outcome: ${logged.dispositionLabel}`, logged.notes?.trim() ?? '']
    .filter(Boolean)
    .join('\n\n');
  return {
    WhoId: whoId,
    Subject: `Call: ${logged.dispositionLabel}`.slice(0, 255),
    Status: 'Completed',
    TaskSubtype: 'Call',
    Type: 'Call',
    ActivityDate: new Intl.DateTimeFormat('en-CA', { timeZone: logged.timeZone }).format(logged.calledAt),
    CallType: logged.call?.direction === 'inbound' ? 'Inbound' : 'Outbound',
    CallDisposition: logged.dispositionLabel.slice(0, 255),
    ...(logged.call?.durationSeconds != null && {
      CallDurationInSeconds: Math.round(logged.call.durationSeconds),
    }),
    Description: description.slice(0, 32_000),
  };
}

/**
 * What Salesforce said, in its words: REST errors are a list of `{ message, errorCode }`, OAuth errors
 * `{ error, error_description }`.
 */
export function salesforceWords(status: number, body: string): string {
  let message = '';
  try {
    const parsed = JSON.parse(body) as unknown;
    if (Array.isArray(parsed)) {
      const first = parsed[0] as { message?: unknown; errorCode?: unknown } | undefined;
      if (typeof first?.message === 'string')
        message =
          typeof first.errorCode === 'string' ? `${first.errorCode}: ${first.message}` : first.message;
    } else if (parsed && typeof parsed === 'object') {
      const oauth = parsed as { error?: unknown; error_description?: unknown };
      if (typeof oauth.error === 'string')
        message =
          typeof oauth.error_description === 'string'
            ? `${oauth.error}: ${oauth.error_description}`
            : oauth.error;
    }
  } catch {
    message = body.replace(/\s+/g, ' ').trim();
  }
  return `Salesforce answered ${status}${message ? `: ${message.slice(0, 300)}` : ''}`;
}

/**
 * Whether a failed request is worth trying again later (Salesforce down or not reached, or the org's API request
 * limit, which Salesforce answers with 403 REQUEST_LIMIT_EXCEEDED), rather than recorded as is.
 */
export function salesforceRetryable(status: number | null, words: string): boolean {
  return (
    status === null ||
    status === 429 ||
    status >= 500 ||
    (status === 403 && words.includes('REQUEST_LIMIT_EXCEEDED'))
  );
}

export const SALESFORCE_OBJECTS = ['Lead', 'Contact'] as const;
export type SalesforceObject = (typeof SALESFORCE_OBJECTS)[number];

export const SalesforceAuthorizeSchema = z.object({ logCalls: z.boolean().default(true) });
export const SalesforceAuthorizeResponseSchema = z.object({ url: z.string() });

export const SalesforceSettingsSchema = z.object({ logCalls: z.boolean().optional() });

export const SalesforceImportSchema = z.object({
  duplicates: DuplicateModeSchema.default('skip'),
  objects: z
    .array(z.enum(SALESFORCE_OBJECTS))
    .min(1, 'Choose Leads, Contacts or both.')
    .max(2)
    .default(['Lead', 'Contact'])
    .transform((objects) => SALESFORCE_OBJECTS.filter((o) => objects.includes(o))),
});
export type SalesforceImportInput = z.input<typeof SalesforceImportSchema>;

export const SalesforceConnectionSchema = CrmSyncStateSchema.extend({
  username: z.string(),
  displayName: z.string().nullable(),
  organizationId: z.string(),
  instanceUrl: z.string(),
  connectedAt: z.iso.datetime(),
  logCalls: z.boolean(),
});
export type SalesforceConnection = z.infer<typeof SalesforceConnectionSchema>;
/** `configured`: whether the operator set up a connected app (without it nobody here can connect). */
export const SalesforceResponseSchema = z.object({
  configured: z.boolean(),
  redirectUri: z.string(),
  salesforce: SalesforceConnectionSchema.nullable(),
});
export type SalesforceResponse = z.infer<typeof SalesforceResponseSchema>;
