import { coldLeadNames, coldLeadPlaceholderEmail, type ColdLeadInput } from '#domain/contacts/cold-lead.ts';
import { diffContact } from '#domain/contacts/contact-history.ts';
import { serviceRuleIssues, type Contact, type ContactStatus } from '#domain/contacts/contact.schema.ts';
import { normalizePhone } from '#domain/contacts/phone.ts';
import { AppError } from '../../errors/app-error.ts';
import type { DbExecutor } from '../../db/database.ts';
import { joinDefaultQueue } from './contact-sync.repository.ts';
import { findContact, lockContact } from './contacts.repository.ts';

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
};

/**
 * Creates a contact owned by its creator, stored synced, and adds it to the default queue in the same transaction
 * (spec part 1 §4 contact sync). The row is read back to verify it (spec part 1 §5).
 */
export async function createContact(
  trx: DbExecutor,
  userId: string,
  fields: ContactFields & { isColdLead?: boolean },
  now: Date,
): Promise<Contact> {
  const inserted = await trx
    .insertInto('contacts')
    .values({
      user_id: userId,
      first_name: fields.firstName,
      last_name: fields.lastName,
      email: fields.email,
      phone: fields.phone,
      phone_e164: normalizePhone(fields.phone),
      company: fields.company,
      website: fields.website,
      title: fields.title,
      notes: fields.notes,
      status: fields.status,
      tags: fields.tags,
      is_cold_lead: fields.isColdLead ?? false,
      synced: true,
      last_synced_at: now,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await joinDefaultQueue(trx, userId, [inserted.id]);
  const contact = await findContact(trx, userId, inserted.id);
  if (!contact) throw new AppError('INTERNAL', 'Contact created but verification failed');
  return contact;
}

/** A cold lead (spec part 1 §5 cold lead form): generated names, a placeholder address, status new. */
export async function createColdLead(
  trx: DbExecutor,
  userId: string,
  input: Required<ColdLeadInput>,
  now: Date,
): Promise<Contact> {
  const placeholderId = crypto.randomUUID();
  const notes =
    [input.contactName && `Contact: ${input.contactName}`, input.notes].filter(Boolean).join('\n') || null;
  return createContact(
    trx,
    userId,
    {
      ...coldLeadNames(input.company),
      email: coldLeadPlaceholderEmail(placeholderId),
      phone: input.phone || null,
      company: input.company || null,
      website: input.website || null,
      title: input.title || null,
      notes,
      status: 'new',
      tags: [],
      isColdLead: true,
    },
    now,
  );
}

/**
 * Updates the fields given and writes one history entry with every field that changed, in the same transaction
 * (decision 000). The service rules run on the merged contact when a name or the e-mail changes (spec part 1 §5).
 */
export async function updateContact(
  trx: DbExecutor,
  userId: string,
  id: string,
  changes: Partial<ContactFields>,
  now: Date,
): Promise<Contact> {
  const existing = await lockContact(trx, userId, id);
  if (!existing) throw new AppError('NOT_FOUND', 'Contact not found');
  if (changes.firstName !== undefined || changes.lastName !== undefined || changes.email !== undefined) {
    const issues = serviceRuleIssues({ ...existing, ...stripUndefined(changes) });
    if (issues.length > 0)
      throw new AppError('VALIDATION_FAILED', issues[0]!.message, {
        issues: issues.map((i) => ({ path: `body.${i.path.join('.')}`, message: i.message })),
      });
  }
  const diff = diffContact(existing, stripUndefined(changes));
  if (!diff) return existing;
  await trx
    .updateTable('contacts')
    .set({
      ...(changes.firstName !== undefined && { first_name: changes.firstName }),
      ...(changes.lastName !== undefined && { last_name: changes.lastName }),
      ...(changes.email !== undefined && { email: changes.email }),
      ...(changes.phone !== undefined && { phone: changes.phone, phone_e164: normalizePhone(changes.phone) }),
      ...(changes.company !== undefined && { company: changes.company }),
      ...(changes.website !== undefined && { website: changes.website }),
      ...(changes.title !== undefined && { title: changes.title }),
      ...(changes.notes !== undefined && { notes: changes.notes }),
      ...(changes.status !== undefined && { status: changes.status }),
      ...(changes.tags !== undefined && { tags: changes.tags }),
      updated_at: now,
    })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .execute();
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
  const updated = await findContact(trx, userId, id);
  if (!updated) throw new AppError('NOT_FOUND', 'Contact not found');
  return updated;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export async function deleteContact(trx: DbExecutor, userId: string, id: string): Promise<void> {
  const result = await trx
    .deleteFrom('contacts')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new AppError('NOT_FOUND', 'Contact not found');
}
