import { z } from 'zod';
import { CrmSyncStateSchema } from '../integrations/crm-sync.ts';
import { DuplicateModeSchema, type ImportField } from '../contacts/contact-import.ts';

/**
 * HubSpot (decision 036): what is read from and written to a HubSpot account through its CRM v3 API with a
 * private app's access token. Pure: the server calls HubSpot, stores the connection and runs the jobs.
 */

/** The contact properties read on import, and the product's field each fills (in the order of an import row). */
export const HUBSPOT_CONTACT_PROPERTIES = [
  'firstname',
  'lastname',
  'email',
  'phone',
  'mobilephone',
  'company',
  'jobtitle',
  'website',
] as const;
export const HUBSPOT_IMPORT_MAPPING: ImportField[] = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'company',
  'title',
  'website',
];

/** One HubSpot contact as an import row (the cells in HUBSPOT_IMPORT_MAPPING's order); the mobile when no phone. */
export function hubspotContactCells(properties: Record<string, string | null | undefined>): string[] {
  const text = (key: string) => (properties[key] ?? '').trim();
  return [
    text('firstname'),
    text('lastname'),
    text('email'),
    text('phone') || text('mobilephone'),
    text('company'),
    text('jobtitle'),
    text('website'),
  ];
}

/**
 * HubSpot's default call outcomes (the `hs_call_disposition` values every account has), for the outcomes that have
 * one; the others are logged as Connected with the product's outcome in the title and body.
 */
export const HUBSPOT_CALL_OUTCOMES = {
  connected: 'f240bbac-87c9-4f6e-bf70-924b57d47db7',
  busy: '9d9162e7-6cf3-4944-bf63-4dff82258764',
  noAnswer: '73a0d17f-1163-4015-bdd5-ec830791da20',
  leftVoicemail: 'b2cf5968-551e-4856-9783-52b3da59a7d0',
  wrongNumber: '17b47fee-58de-441e-a44c-c6300d46f273',
} as const;

const OUTCOME_OF: Record<string, string> = {
  'no-answer': HUBSPOT_CALL_OUTCOMES.noAnswer,
  busy: HUBSPOT_CALL_OUTCOMES.busy,
  voicemail: HUBSPOT_CALL_OUTCOMES.leftVoicemail,
};

/** HubSpot's call status for the provider's end state of the call (none logged: completed). */
const STATUS_OF: Record<string, string> = {
  completed: 'COMPLETED',
  busy: 'BUSY',
  'no-answer': 'NO_ANSWER',
  failed: 'FAILED',
  canceled: 'CANCELED',
};

/** HubSpot's association type from a call to a contact (HUBSPOT_DEFINED). */
export const CALL_TO_CONTACT_ASSOCIATION = 194;

export type LoggedCall = {
  /** The outcome as saved (its value and its label). */
  disposition: string;
  dispositionLabel: string;
  notes: string | null;
  calledAt: Date;
  contactName: string;
  call: {
    direction: 'outbound' | 'inbound';
    status: string;
    from: string;
    to: string;
    durationSeconds: number | null;
  } | null;
};

/** The POST /crm/v3/objects/calls body that logs one call on a HubSpot contact. */
export function hubspotCallBody(logged: LoggedCall, hubspotContactId: string) {
  const title = `Call with ${logged.contactName || 'contact'}: ${logged.dispositionLabel}`;
  const body = [`Outcome: ${logged.dispositionLabel}`, logged.notes?.trim() ?? '']
    .filter(Boolean)
    .join('\n\n');
  return {
    properties: {
      hs_timestamp: logged.calledAt.toISOString(),
      hs_call_title: title.slice(0, 250),
      hs_call_body: body.slice(0, 65_000),
      hs_call_disposition: OUTCOME_OF[logged.disposition] ?? HUBSPOT_CALL_OUTCOMES.connected,
      hs_call_direction: logged.call?.direction === 'inbound' ? 'INBOUND' : 'OUTBOUND',
      hs_call_status: STATUS_OF[logged.call?.status ?? 'completed'] ?? 'COMPLETED',
      ...(logged.call && {
        hs_call_from_number: logged.call.from,
        hs_call_to_number: logged.call.to,
        ...(logged.call.durationSeconds !== null && {
          hs_call_duration: String(Math.round(logged.call.durationSeconds * 1000)),
        }),
      }),
    },
    associations: [
      {
        to: { id: hubspotContactId },
        types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: CALL_TO_CONTACT_ASSOCIATION }],
      },
    ],
  };
}

/** The properties of a HubSpot contact made for a call's contact when none matches (if the user chose that). */
export function hubspotNewContact(contact: {
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  company: string | null;
  title: string | null;
}) {
  const properties: Record<string, string> = { firstname: contact.firstName, lastname: contact.lastName };
  if (contact.email) properties.email = contact.email;
  if (contact.phone) properties.phone = contact.phone;
  if (contact.company) properties.company = contact.company;
  if (contact.title) properties.jobtitle = contact.title;
  return { properties };
}

/** The search that finds a contact by e-mail or by phone (filter groups are ORed), or null with neither. */
export function hubspotContactSearch(email: string | null, phone: string | null) {
  const groups = [
    ...(email ? [{ filters: [{ propertyName: 'email', operator: 'EQ', value: email.toLowerCase() }] }] : []),
    ...(phone
      ? [
          { filters: [{ propertyName: 'phone', operator: 'EQ', value: phone }] },
          { filters: [{ propertyName: 'mobilephone', operator: 'EQ', value: phone }] },
        ]
      : []),
  ];
  if (groups.length === 0) return null;
  return { filterGroups: groups, properties: ['email', 'phone'], limit: 1 };
}

/** What HubSpot said, in its words: its error body's `message`, else the status. */
export function hubspotWords(status: number, body: string): string {
  let message = '';
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string') message = parsed.message;
  } catch {
    message = body.replace(/\s+/g, ' ').trim();
  }
  return `HubSpot answered ${status}${message ? `: ${message.slice(0, 300)}` : ''}`;
}

/** Whether a failed request is worth trying again later (rate limit, HubSpot down), rather than recorded as is. */
export function hubspotRetryable(status: number | null): boolean {
  return status === null || status === 429 || status >= 500;
}

export const HubSpotConnectSchema = z.object({
  token: z
    .string()
    .trim()
    .min(1, 'Paste the access token of your HubSpot private app.')
    .max(500, 'At most 500 characters.'),
  logCalls: z.boolean().default(true),
  createMissing: z.boolean().default(false),
});
export type HubSpotConnectInput = z.input<typeof HubSpotConnectSchema>;

export const HubSpotSettingsSchema = z.object({
  logCalls: z.boolean().optional(),
  createMissing: z.boolean().optional(),
});

export const HubSpotImportSchema = z.object({ duplicates: DuplicateModeSchema.default('skip') });

export const HubSpotConnectionSchema = CrmSyncStateSchema.extend({
  portalId: z.string(),
  accountDomain: z.string().nullable(),
  connectedAt: z.iso.datetime(),
  logCalls: z.boolean(),
  createMissing: z.boolean(),
});
export type HubSpotConnection = z.infer<typeof HubSpotConnectionSchema>;
export const HubSpotResponseSchema = z.object({ hubspot: HubSpotConnectionSchema.nullable() });
