import type { ContactEmail, Delivery } from '#domain/email/email.schema.ts';
import type { DbExecutor } from '../../db/database.ts';

const COLUMNS = [
  'contact_emails.id',
  'contact_emails.contact_id',
  'contact_emails.direction',
  'contact_emails.delivery',
  'contact_emails.from_address',
  'contact_emails.to_address',
  'contact_emails.subject',
  'contact_emails.content',
  'contact_emails.sent_at',
] as const;

type Row = {
  id: string;
  contact_id: string;
  direction: 'outbound' | 'inbound';
  delivery: Delivery;
  from_address: string;
  to_address: string;
  subject: string;
  content: string;
  sent_at: Date;
};
const toEmail = (r: Row): ContactEmail => ({
  id: r.id,
  contactId: r.contact_id,
  direction: r.direction,
  delivery: r.delivery,
  fromAddress: r.from_address,
  toAddress: r.to_address,
  subject: r.subject,
  content: r.content,
  sentAt: r.sent_at.toISOString(),
});

export async function insertContactEmail(
  db: DbExecutor,
  values: {
    userId: string;
    contactId: string;
    templateId: string | null;
    delivery: Delivery;
    from: string;
    to: string;
    subject: string;
    content: string;
    messageId: string | null;
    sentAt: Date;
  },
): Promise<ContactEmail> {
  const row = await db
    .insertInto('contact_emails')
    .values({
      user_id: values.userId,
      contact_id: values.contactId,
      template_id: values.templateId,
      delivery: values.delivery,
      from_address: values.from,
      to_address: values.to,
      subject: values.subject,
      content: values.content,
      message_id: values.messageId,
      sent_at: values.sentAt,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toEmail(row);
}

/** A contact's e-mails, newest first (shown on the contact detail). */
export async function findContactEmails(
  db: DbExecutor,
  userId: string,
  contactId: string,
): Promise<ContactEmail[]> {
  const rows = await db
    .selectFrom('contact_emails')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .where('contact_id', '=', contactId)
    .orderBy('sent_at', 'desc')
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
  return rows.map(toEmail);
}

export const OUTBOX_PAGE_SIZE = 50;

/** The outbox: e-mails kept because no mail server was configured, newest first, 50 at a time before a cursor. */
export async function findOutbox(
  db: DbExecutor,
  userId: string,
  before: { sentAt: Date; id: string } | undefined,
): Promise<{ messages: (ContactEmail & { contactName: string })[]; hasMore: boolean }> {
  let q = db
    .selectFrom('contact_emails')
    .innerJoin('contacts', 'contacts.id', 'contact_emails.contact_id')
    .select(COLUMNS)
    .select(['contacts.first_name', 'contacts.last_name'])
    .where('contact_emails.user_id', '=', userId)
    .where('contact_emails.delivery', '=', 'outbox');
  if (before) {
    q = q.where((eb) =>
      eb.or([
        eb('contact_emails.sent_at', '<', before.sentAt),
        eb.and([eb('contact_emails.sent_at', '=', before.sentAt), eb('contact_emails.id', '<', before.id)]),
      ]),
    );
  }
  const rows = await q
    .orderBy('contact_emails.sent_at', 'desc')
    .orderBy('contact_emails.id', 'desc')
    .limit(OUTBOX_PAGE_SIZE + 1)
    .execute();
  return {
    messages: rows.slice(0, OUTBOX_PAGE_SIZE).map((r) => ({
      ...toEmail(r),
      contactName: `${r.first_name} ${r.last_name}`.trim(),
    })),
    hasMore: rows.length > OUTBOX_PAGE_SIZE,
  };
}

/**
 * Records an e-mail on its contact if the contact is still there (a campaign's e-mail whose contact was deleted
 * while it was being sent is not recorded; the campaign's recipient row keeps it). The contact's row is share-locked
 * so it cannot go between the check and the insert.
 */
export async function insertContactEmailIfPresent(
  db: DbExecutor,
  values: Parameters<typeof insertContactEmail>[1],
): Promise<void> {
  const exists = await db
    .selectFrom('contacts')
    .select('id')
    .where('id', '=', values.contactId)
    .forShare()
    .executeTakeFirst();
  if (exists) await insertContactEmail(db, values);
}
