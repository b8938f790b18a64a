import type { Selectable, SelectQueryBuilder } from 'kysely';
import type { ContactDiff } from '#domain/contacts/contact-history.ts';
import type { Contact, ContactStatus, HistoryEntry } from '#domain/contacts/contact.schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import type { ContactsTable, Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';

export const CONTACT_COLUMNS = [
  'id',
  'first_name',
  'last_name',
  'email',
  'phone',
  'phone_e164',
  'company',
  'website',
  'title',
  'notes',
  'status',
  'tags',
  'is_cold_lead',
  'synced',
  'last_synced_at',
  'created_at',
  'updated_at',
  'last_call_at',
  'needs_attention',
  'is_qualified',
  'time_zone',
  'state',
] as const;
export const LIST_COLUMNS = CONTACT_COLUMNS.filter(
  (c) => !['notes', 'website', 'synced', 'last_synced_at', 'time_zone', 'state'].includes(c),
);

export type ContactRow = Pick<Selectable<ContactsTable>, (typeof CONTACT_COLUMNS)[number]>;

export function toContact(row: ContactRow): Contact {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phone: row.phone,
    phoneE164: row.phone_e164,
    company: row.company,
    website: row.website,
    title: row.title,
    notes: row.notes,
    status: row.status,
    tags: row.tags,
    isColdLead: row.is_cold_lead,
    synced: row.synced,
    lastSyncedAt: row.last_synced_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    lastCallDate: row.last_call_at?.toISOString() ?? null,
    needsAttention: row.needs_attention,
    isQualified: row.is_qualified,
    ...('time_zone' in row && { timeZone: row.time_zone, state: row.state }),
  };
}

export async function findContact(db: DbExecutor, userId: string, id: string): Promise<Contact | undefined> {
  const row = await db
    .selectFrom('contacts')
    .select(CONTACT_COLUMNS)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toContact(row) : undefined;
}

/** The user's contacts among these ids, in the order given; ids that are not theirs (or gone) are left out. */
export async function findContactsByIds(
  db: DbExecutor,
  userId: string,
  ids: readonly string[],
): Promise<Contact[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('contacts')
    .select(CONTACT_COLUMNS)
    .where('user_id', '=', userId)
    .where('id', 'in', [...ids])
    .execute();
  const byId = new Map(rows.map((r) => [r.id, toContact(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The user's contact, or NOT_FOUND 'Contact not found' (another user's contact is not found either). */
export async function getContact(db: DbExecutor, userId: string, id: string): Promise<Contact> {
  const contact = await findContact(db, userId, id);
  if (!contact) throw contactNotFound();
  return contact;
}

/** getContact, with the row locked until the transaction ends (an update reads, compares and writes it). */
export async function lockContact(db: DbExecutor, userId: string, id: string): Promise<Contact> {
  const row = await db
    .selectFrom('contacts')
    .select(CONTACT_COLUMNS)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw contactNotFound();
  return toContact(row);
}

export const contactNotFound = () => new AppError('NOT_FOUND', 'Contact not found');

export async function findHistory(db: DbExecutor, contactId: string): Promise<HistoryEntry[]> {
  const rows = await db
    .selectFrom('contact_history')
    .select(['id', 'changed_fields', 'previous_values', 'new_values', 'changed_at'])
    .where('contact_id', '=', contactId)
    .orderBy('changed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    changedFields: r.changed_fields,
    previousValues: r.previous_values,
    newValues: r.new_values,
    changedAt: r.changed_at.toISOString(),
  }));
}

/** The editable fields of a contact, as the service hands them to the repository. */
export type ContactFields = {
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  company: string | null;
  website: string | null;
  title: string | null;
  notes: string | null;
  status: ContactStatus;
  tags: string[];
  timeZone?: string | null;
  state?: string | null;
};

/** A new contact of the user, stored synced; its id. */
export async function insertContact(
  trx: DbExecutor,
  userId: string,
  fields: ContactFields & { isColdLead?: boolean; phoneE164: string | null },
  now: Date,
): Promise<string> {
  const inserted = await trx
    .insertInto('contacts')
    .values({
      user_id: userId,
      first_name: fields.firstName,
      last_name: fields.lastName,
      email: fields.email,
      phone: fields.phone,
      phone_e164: fields.phoneE164,
      company: fields.company,
      website: fields.website,
      title: fields.title,
      notes: fields.notes,
      status: fields.status,
      tags: fields.tags,
      time_zone: fields.timeZone ?? null,
      state: fields.state ?? null,
      is_cold_lead: fields.isColdLead ?? false,
      synced: true,
      last_synced_at: now,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** Writes the fields given (others untouched); a new phone comes with its normalised form. */
export async function writeContactChanges(
  trx: DbExecutor,
  userId: string,
  id: string,
  changes: Partial<ContactFields> & { phoneE164?: string | null },
  now: Date,
): Promise<void> {
  await trx
    .updateTable('contacts')
    .set({
      ...(changes.firstName !== undefined && { first_name: changes.firstName }),
      ...(changes.lastName !== undefined && { last_name: changes.lastName }),
      ...(changes.email !== undefined && { email: changes.email }),
      ...(changes.phone !== undefined && {
        phone: changes.phone,
        phone_e164: changes.phoneE164 ?? null,
      }),
      ...(changes.company !== undefined && { company: changes.company }),
      ...(changes.website !== undefined && { website: changes.website }),
      ...(changes.title !== undefined && { title: changes.title }),
      ...(changes.notes !== undefined && { notes: changes.notes }),
      ...(changes.status !== undefined && { status: changes.status }),
      ...(changes.tags !== undefined && { tags: changes.tags }),
      ...(changes.timeZone !== undefined && { time_zone: changes.timeZone }),
      ...(changes.state !== undefined && { state: changes.state }),
      updated_at: now,
    })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .execute();
}

/** One history entry: the fields that changed, with their old and new values. */
export async function recordHistory(
  trx: DbExecutor,
  userId: string,
  id: string,
  diff: ContactDiff,
  now: Date,
): Promise<void> {
  await trx
    .insertInto('contact_history')
    .values({
      contact_id: id,
      user_id: userId,
      changed_fields: diff.changedFields,
      previous_values: JSON.stringify(diff.previousValues),
      new_values: JSON.stringify(diff.newValues),
      changed_at: now,
    })
    .execute();
}

/** Deletes the user's contact; whether there was one. */
export async function deleteContactRow(trx: DbExecutor, userId: string, id: string): Promise<boolean> {
  const result = await trx
    .deleteFrom('contacts')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Deletes the user's contacts among `ids` (a list, or the ids a filter matches); how many went. */
export async function deleteContacts(
  trx: DbExecutor,
  userId: string,
  ids: readonly string[] | SelectQueryBuilder<Database, 'contacts', { id: string }>,
): Promise<number> {
  const list = Array.isArray(ids) ? (ids as readonly string[]) : null;
  const result = await trx
    .deleteFrom('contacts')
    .where('user_id', '=', userId)
    .where('id', 'in', list ? [...list] : (ids as SelectQueryBuilder<Database, 'contacts', { id: string }>))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Whether the user has any contact at all (an import into an empty account has nothing to match against). */
export async function hasAnyContact(db: DbExecutor, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('contacts')
    .select('id')
    .where('user_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return Boolean(row);
}
