import { z } from 'zod';
import {
  CONTACT_LIMITS,
  ContactStatusSchema,
  SERVICE_EMAIL_PATTERN,
  type ContactStatus,
} from './contact.schema.ts';
import { unescapeCell } from './contact-csv.ts';
import { normalizePhone } from './phone.ts';
import { MAX_TAG_LENGTH, MAX_TAGS, parseTags } from './tags.ts';
import { stripControlCharacters } from '../text/control-characters.ts';
import { stateCode } from '../consent/calling-rules.ts';
import { isTimeZone } from '../time/zoned-time.ts';

/**
 * Importing contacts: the columns a file can fill, how its columns are matched to them,
 * and the rules a row must pass. Shared by the server that imports and the browser that shows the mapping.
 */
export const IMPORT_FIELDS = [
  'firstName',
  'lastName',
  'phone',
  'email',
  'company',
  'title',
  'website',
  'notes',
  'status',
  'tags',
  'timeZone',
  'state',
] as const;
export const ImportFieldSchema = z.enum(IMPORT_FIELDS);
export type ImportField = z.infer<typeof ImportFieldSchema>;

export const IMPORT_FIELD_LABELS: Record<ImportField, string> = {
  firstName: 'First Name',
  lastName: 'Last Name',
  phone: 'Phone',
  email: 'Email',
  company: 'Company',
  title: 'Title',
  website: 'Website',
  notes: 'Notes',
  status: 'Status',
  tags: 'Tags',
  timeZone: 'Time Zone',
  state: 'State',
};

/** Without a header, columns are first name, last name, phone, e-mail, company. */
export const DEFAULT_COLUMN_ORDER: ImportField[] = ['firstName', 'lastName', 'phone', 'email', 'company'];

export const IMPORT_MESSAGES = {
  invalidType: 'Invalid file type: Please select a CSV, Excel (.xlsx) or vCard (.vcf) file',
  noData: 'No data provided',
  noValid: 'No valid contacts found',
} as const;

export const IMPORT_FORMATS = ['csv', 'xlsx', 'vcard'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];
/** Where an import's rows came from: a file of one of the formats, or a connected CRM (decision 036). */
export const IMPORT_SOURCES = [...IMPORT_FORMATS, 'hubspot', 'salesforce'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/** The format a file name announces, or null when we cannot read it. */
export function importFormatOf(fileName: string): ImportFormat | null {
  const extension = fileName.toLowerCase().split('.').pop();
  if (extension === 'csv' || extension === 'txt') return 'csv';
  if (extension === 'xlsx') return 'xlsx';
  if (extension === 'vcf' || extension === 'vcard') return 'vcard';
  return null;
}

/** One target field per column of the file (null: the column is not imported). */
export const ImportMappingSchema = z
  .array(ImportFieldSchema.nullable())
  .min(1)
  .max(500)
  .refine(
    (m) => new Set(m.filter(Boolean)).size === m.filter(Boolean).length,
    'Each field can be filled from one column only',
  )
  .refine((m) => m.includes('firstName'), 'Choose the column that holds the first name');
export type ImportMapping = z.infer<typeof ImportMappingSchema>;

export const DuplicateModeSchema = z.enum(['skip', 'update']);
export type DuplicateMode = z.infer<typeof DuplicateModeSchema>;

const normaliseHeader = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Header names other tools use, by field (Google, Outlook, HubSpot, Salesforce, phones' vCard export, ours). */
const HEADER_ALIASES: Record<ImportField, string[]> = {
  firstName: ['firstname', 'first', 'givenname', 'forename', 'fname', 'vorname', 'prenom', 'nombre'],
  lastName: [
    'lastname',
    'last',
    'surname',
    'familyname',
    'lname',
    'nachname',
    'nom',
    'apellido',
    'apellidos',
  ],
  phone: [
    'phone',
    'phonenumber',
    'mobile',
    'mobilephone',
    'cell',
    'cellphone',
    'telephone',
    'tel',
    'businessphone',
    'workphone',
    'phone1value',
  ],
  email: ['email', 'emailaddress', 'mail', 'email1value', 'emailaddress1', 'primaryemail'],
  company: [
    'company',
    'companyname',
    'organization',
    'organisation',
    'org',
    'account',
    'accountname',
    'business',
  ],
  title: ['title', 'jobtitle', 'position', 'role'],
  website: ['website', 'web', 'url', 'homepage', 'site'],
  notes: ['notes', 'note', 'comments', 'comment', 'description'],
  status: ['status', 'leadstatus'],
  tags: ['tags', 'tag', 'labels', 'groups', 'categories'],
  timeZone: ['timezone', 'tz', 'zone'],
  state: ['state', 'usstate', 'stateprovince'],
};
const FIELD_BY_ALIAS = new Map(
  Object.entries(HEADER_ALIASES).flatMap(([field, aliases]) => aliases.map((a) => [a, field as ImportField])),
);

/**
 * Whether the first row is a header: skipped as a header when it contains 'first'; beyond the
 * spec, also when two or more of its cells are known column names ('Name, Email, Phone' has no 'first').
 */
export function isHeaderRow(cells: readonly string[]): boolean {
  if (cells.some((c) => c.toLowerCase().includes('first'))) return true;
  return cells.filter((c) => FIELD_BY_ALIAS.has(normaliseHeader(c))).length >= 2;
}

/** Columns matched by header name, each field at most once; without a header, the spec's column order. */
export function suggestMapping(
  header: readonly string[] | null,
  columnCount: number,
): (ImportField | null)[] {
  if (!header) return Array.from({ length: columnCount }, (_, i) => DEFAULT_COLUMN_ORDER[i] ?? null);
  const used = new Set<ImportField>();
  return Array.from({ length: Math.max(columnCount, header.length) }, (_, i) => {
    const field = FIELD_BY_ALIAS.get(normaliseHeader(header[i] ?? ''));
    if (!field || used.has(field)) return null;
    used.add(field);
    return field;
  });
}

/** A row ready to store. A field is null when no column fills it (an update then leaves it alone). */
export type ImportedContact = {
  firstName: string;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  phoneE164: string | null;
  company: string | null;
  title: string | null;
  website: string | null;
  notes: string | null;
  status: ContactStatus | null;
  tags: string[] | null;
  /** An IANA zone and a US state code; a value we cannot read is left out (the number's then decide). */
  timeZone: string | null;
  state: string | null;
};

export type ImportRowResult = { ok: true; contact: ImportedContact } | { ok: false; reason: string };

const LIMITS: Partial<Record<ImportField, number>> = {
  firstName: CONTACT_LIMITS.name,
  lastName: CONTACT_LIMITS.name,
  email: CONTACT_LIMITS.email,
  phone: CONTACT_LIMITS.phone,
  company: CONTACT_LIMITS.company,
  title: CONTACT_LIMITS.title,
  website: CONTACT_LIMITS.website,
  notes: CONTACT_LIMITS.notes,
};

/** Quotes stripped: a value wrapped in quotes a sloppy export left around it. */
const stripQuotes = (v: string) => {
  const trimmed = v.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')
    ? trimmed.slice(1, -1).trim()
    : trimmed;
};

/**
 * The rules a row must pass: at least 2 columns, a first name, and a phone or an e-mail; beyond
 * the spec, an e-mail that looks like one, lengths within the contact's limits, and a status we know (others are
 * left out rather than refusing the row). A file of our own export has its spreadsheet-safety escape undone.
 */
export function validateImportRow(
  cells: readonly string[],
  mapping: readonly (ImportField | null)[],
  options: { ownExport: boolean; phoneCountry?: string },
): ImportRowResult {
  if (cells.length < 2) return { ok: false, reason: 'Fewer than 2 columns' };
  const value: Partial<Record<ImportField, string>> = {};
  for (const [i, field] of mapping.entries()) {
    if (!field) continue;
    // Control characters never reach stored fields (domain/text/control-characters.ts).
    const cell = stripControlCharacters(cells[i] ?? '');
    value[field] = options.ownExport ? unescapeCell(cell.trim()) : stripQuotes(cell);
  }
  for (const [field, max] of Object.entries(LIMITS) as [ImportField, number][]) {
    if ((value[field]?.length ?? 0) > max)
      return { ok: false, reason: `${IMPORT_FIELD_LABELS[field]} is longer than ${max} characters` };
  }
  if (!value.firstName) return { ok: false, reason: 'First name is missing' };
  const email = value.email || null;
  const phone = value.phone || null;
  if (!email && !phone) return { ok: false, reason: 'Needs a phone number or an e-mail address' };
  if (email && !SERVICE_EMAIL_PATTERN.test(email))
    return { ok: false, reason: `Invalid e-mail address: ${email}` };
  const phoneE164 = normalizePhone(phone, options.phoneCountry);
  if (phone && !phoneE164) return { ok: false, reason: `Invalid phone number: ${phone}` };
  const status = value.status ? ContactStatusSchema.safeParse(value.status.toLowerCase()) : null;
  const tags = value.tags ? parseTags(value.tags) : null;
  if (tags && tags.length > MAX_TAGS) return { ok: false, reason: `More than ${MAX_TAGS} tags` };
  if (tags?.some((t) => t.length > MAX_TAG_LENGTH))
    return { ok: false, reason: `A tag is longer than ${MAX_TAG_LENGTH} characters` };
  const text = (field: ImportField) => (field in value ? value[field] || null : null);
  return {
    ok: true,
    contact: {
      firstName: value.firstName,
      lastName: 'lastName' in value ? (value.lastName ?? '') : null,
      email,
      phone,
      phoneE164,
      company: text('company'),
      title: text('title'),
      website: text('website'),
      notes: text('notes'),
      status: status?.success ? status.data : null,
      tags: tags && tags.length > 0 ? tags : null,
      timeZone:
        value.timeZone && value.timeZone.length <= 64 && isTimeZone(value.timeZone) ? value.timeZone : null,
      state: stateCode(value.state),
    },
  };
}

/** What the first rows of a file look like, for the mapping step. */
export const ImportPreviewSchema = z.object({
  format: z.enum(IMPORT_FORMATS),
  header: z.array(z.string()).nullable(),
  rows: z.array(z.array(z.string())),
  columnCount: z.number().int(),
  mapping: z.array(ImportFieldSchema.nullable()),
  ownExport: z.boolean(),
});
export type ImportPreview = z.infer<typeof ImportPreviewSchema>;

export const SkippedRowSchema = z.object({ row: z.number().int(), reason: z.string() });
export type SkippedRow = z.infer<typeof SkippedRowSchema>;

/** Skipped rows kept with their reasons in a report; the counts are always complete. */
export const REPORT_SKIPPED_LIMIT = 10_000;

export const ImportReportSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  format: z.enum(IMPORT_SOURCES),
  duplicates: DuplicateModeSchema,
  status: z.enum(['running', 'done', 'failed']),
  totalRows: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
  skippedRows: z.array(SkippedRowSchema),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ImportReport = z.infer<typeof ImportReportSchema>;

/** The lines the import answers with while it runs (newline-delimited JSON), ending with the report or an error. */
export const ImportEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('progress'),
    /** Reading and saving the file's rows, then adding the new contacts to the default queue. */
    phase: z.enum(['reading', 'queueing']),
    read: z.number().int(),
    created: z.number().int(),
    updated: z.number().int(),
    skipped: z.number().int(),
    /**
     * While queueing: the share of the file (0–1) whose new contacts are in the queue so far. Sent after each range
     * of rows, so a long queueing step is never silent (the server closes a connection idle for 2 minutes).
     */
    queued: z.number().min(0).max(1),
  }),
  z.object({ type: z.literal('done'), report: ImportReportSchema }),
  z.object({ type: z.literal('error'), message: z.string() }),
]);
export type ImportEvent = z.infer<typeof ImportEventSchema>;
