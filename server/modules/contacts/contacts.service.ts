import { coldLeadNames, coldLeadPlaceholderEmail, type ColdLeadInput } from '#domain/contacts/cold-lead.ts';
import { diffContact } from '#domain/contacts/contact-history.ts';
import { serviceRuleIssues, type Contact } from '#domain/contacts/contact.schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { normalizePhone } from '#domain/contacts/phone.ts';
import { phoneCountryOf } from '../profiles/public.ts';
import type { DbExecutor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import {
  contactNotFound,
  type ContactFields,
  deleteContactRow,
  findContact,
  getContact,
  insertContact,
  lockContact,
  recordHistory,
  writeContactChanges,
} from './contacts.repository.ts';

/**
 * Creates a contact owned by its creator, stored synced, and adds it to the default queue in the same transaction
 * (contact sync; the queues module's joinDefaultQueue, given through the app context). The row is read back to
 * verify it before it joins the queue: joining locks the queue's counts row until the commit, and every other
 * contact its owner creates meanwhile waits for that lock, so nothing but the commit comes after it.
 */
export async function createContact(
  ctx: Pick<AppContext, 'joinDefaultQueue'>,
  trx: DbExecutor,
  userId: string,
  fields: ContactFields & { isColdLead?: boolean },
  now: Date,
): Promise<Contact> {
  const phoneE164 = normalizePhone(fields.phone, await phoneCountryOf(trx, userId));
  const id = await insertContact(trx, userId, { ...fields, phoneE164 }, now);
  const contact = await findContact(trx, userId, id);
  if (!contact) throw new AppError('INTERNAL', 'Contact created but verification failed');
  await ctx.joinDefaultQueue(trx, userId, [id]);
  return contact;
}

/** A cold lead (cold lead form): generated names, a placeholder address, status new. */
export async function createColdLead(
  ctx: Pick<AppContext, 'joinDefaultQueue'>,
  trx: DbExecutor,
  userId: string,
  input: Required<ColdLeadInput>,
  now: Date,
): Promise<Contact> {
  const placeholderId = crypto.randomUUID();
  const notes =
    [input.contactName && `Contact: ${input.contactName}`, input.notes].filter(Boolean).join('\n') || null;
  return createContact(
    ctx,
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
 * (decision 000). The service rules run on the merged contact when a name or the e-mail changes.
 */
export async function updateContact(
  trx: DbExecutor,
  userId: string,
  id: string,
  changes: Partial<ContactFields>,
  now: Date,
): Promise<Contact> {
  const existing = await lockContact(trx, userId, id);
  if (changes.firstName !== undefined || changes.lastName !== undefined || changes.email !== undefined) {
    const issues = serviceRuleIssues({ ...existing, ...stripUndefined(changes) });
    if (issues.length > 0)
      throw new AppError('VALIDATION_FAILED', issues[0]!.message, {
        issues: issues.map((i) => ({ path: `body.${i.path.join('.')}`, message: i.message })),
      });
  }
  const diff = diffContact(existing, stripUndefined(changes));
  if (!diff) return existing;
  // A new phone is read in the user's country (Settings → Profile) and stored with its normalised form.
  const phoneE164 =
    changes.phone !== undefined
      ? normalizePhone(changes.phone, await phoneCountryOf(trx, userId))
      : undefined;
  await writeContactChanges(trx, userId, id, { ...changes, phoneE164 }, now);
  await recordHistory(trx, userId, id, diff, now);
  return getContact(trx, userId, id);
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export async function deleteContact(trx: DbExecutor, userId: string, id: string): Promise<void> {
  if (!(await deleteContactRow(trx, userId, id))) throw contactNotFound();
}
