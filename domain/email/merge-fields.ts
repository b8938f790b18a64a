/**
 * Merge fields in templates and e-mails: `{{firstName}}` and friends, filled from the contact when the
 * e-mail is written and again when it is sent. Spaces inside the braces and any letter case are accepted. A missing
 * value becomes empty text, never the placeholder itself.
 */
export const MERGE_FIELDS = {
  firstName: 'First name',
  lastName: 'Last name',
  fullName: 'Full name',
  email: 'Email',
  phone: 'Phone',
  company: 'Company',
  title: 'Job title',
} as const;
export type MergeField = keyof typeof MERGE_FIELDS;

export type MergeContact = {
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  company: string | null;
  title: string | null;
};

const PLACEHOLDER = /\{\{\s*([A-Za-z]+)\s*\}\}/g;
const byLowerName = new Map(Object.keys(MERGE_FIELDS).map((k) => [k.toLowerCase(), k as MergeField]));

function valueOf(field: MergeField, contact: MergeContact): string {
  if (field === 'fullName') return `${contact.firstName} ${contact.lastName}`.trim();
  return contact[field] ?? '';
}

/** Fills every known merge field; unknown ones are left as written (the template check reports them first). */
export function renderMergeFields(text: string, contact: MergeContact): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const field = byLowerName.get(name.toLowerCase());
    return field ? valueOf(field, contact) : whole;
  });
}

/** The placeholders in a text that are not merge fields, as written: a template naming one is refused. */
export function unknownMergeFields(text: string): string[] {
  const unknown = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER)) {
    if (!byLowerName.has((match[1] ?? '').toLowerCase())) unknown.add(match[0]);
  }
  return [...unknown];
}

/** A sample contact for previews in Settings. */
export const SAMPLE_CONTACT: MergeContact = {
  firstName: 'Jordan',
  lastName: 'Lee',
  email: 'jordan.lee@example.com',
  phone: '(555) 010-0199',
  company: 'Acme Corp',
  title: 'Head of Sales',
};
