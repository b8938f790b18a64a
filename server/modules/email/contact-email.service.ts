import { isSendableAddress, type ContactEmail } from '#domain/email/email.schema.ts';
import { decideForContact, recordDecisions } from '../consent/public.ts';
import { renderMergeFields } from '#domain/email/merge-fields.ts';
import type { DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import { MailDeliveryError } from '../../mail/smtp-sender.ts';
import type { AppContext } from '../../app-context.ts';
import { getContact } from '../contacts/public.ts';
import { findSmtpSettings } from './email-configuration.repository.ts';
import { findTemplate } from './email-templates.repository.ts';
import { insertContactEmail } from './contact-email.repository.ts';

/**
 * Send Email to a contact. Merge fields are filled from the contact, the mail goes
 * through the user's own server, or, when they have configured none, to the outbox (never silently dropped; the
 * answer says which). Each e-mail is recorded against the contact in the same transaction. A refusing or
 * unreachable server answers MAIL_FAILED with its reason, and nothing is recorded. The e-mail sent is in the contact's
 * consent record.
 */
export async function sendEmailToContact(
  ctx: Pick<AppContext, 'secretBox' | 'sendSmtp' | 'clock'>,
  trx: DbExecutor,
  input: {
    userId: string;
    accountEmail: string;
    contactId: string;
    subject: string;
    content: string;
    templateId: string | null;
  },
): Promise<ContactEmail> {
  const contact = await getContact(trx, input.userId, input.contactId);
  // The consent gate: a one-off e-mail is a person writing, so an unsubscribe from campaigns does not stop it.
  const reach = await decideForContact(trx, input.userId, contact.id, 'email', ctx.clock());
  if (!reach?.decision.allowed || !isSendableAddress(contact.email))
    throw new AppError('VALIDATION_FAILED', 'This contact has no e-mail address to send to.');
  if (input.templateId && !(await findTemplate(trx, input.userId, input.templateId)))
    throw new AppError('NOT_FOUND', 'Template not found');

  const subject = renderMergeFields(input.subject, contact).trim();
  const content = renderMergeFields(input.content, contact);
  const settings = await findSmtpSettings(trx, input.userId, ctx.secretBox);
  let messageId: string | null = null;
  if (settings) {
    try {
      messageId = (await ctx.sendSmtp(settings, { to: contact.email, subject, text: content })).messageId;
    } catch (error) {
      if (error instanceof MailDeliveryError) throw new AppError('MAIL_FAILED', error.message);
      throw error;
    }
  }
  // The e-mail that went out is in the contact's consent record, as calls, texts and campaign e-mail are.
  await recordDecisions(trx, input.userId, [{ contactId: contact.id, channel: 'email', reach }], ctx.clock());
  return insertContactEmail(trx, {
    userId: input.userId,
    contactId: contact.id,
    templateId: input.templateId,
    delivery: settings ? 'smtp' : 'outbox',
    from: settings ? settings.fromAddress : input.accountEmail,
    to: contact.email,
    subject,
    content,
    messageId,
    sentAt: ctx.clock(),
  });
}
