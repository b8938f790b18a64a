import { emailSkipReason } from '#domain/campaigns/email-campaign.schema.ts';
import { decideForContact } from '../consent/public.ts';
import { dueAfter, type SequenceStep } from '#domain/campaigns/email-sequence.schema.ts';
import { renderMergeFields, type MergeContact } from '#domain/email/merge-fields.ts';
import { MailDeliveryError, type SmtpSession, type SmtpSettings } from '../../mail/smtp-sender.ts';
import { findSmtpSettings, insertContactEmailIfPresent } from '../email/public.ts';
import { findProfile } from '../profiles/public.ts';
import type { Outcome, SendChannel } from './campaign-send.ts';
import {
  findEmailRun,
  findNextDue,
  findNextEmailRecipient,
  markEmailLeftoversUnconfirmed,
  markEmailRecipient,
  recordEmailOutcome,
} from './email-sends.repository.ts';
import { findSteps } from './email-sequences.repository.ts';

export const unsubscribeUrl = (publicUrl: string, token: string) => `${publicUrl}/unsubscribe/${token}`;

/** What a run sends: a one-time campaign is a sequence of one e-mail, due at once. */
type Plan = { sequence: boolean; steps: SequenceStep[] };
type Setup = { plan: Plan; from: string; settings: SmtpSettings | null };
type Claim = { token: string; email: string | null; contact: MergeContact; stepsSent: number };
type Sent = { delivery: 'smtp' | 'outbox'; messageId: string | null; subject: string; text: string };

/** "E-mail 2: …" in a sequence, so a reason says which of its e-mails it is about. */
const aboutStep = (plan: Plan, stepsSent: number, text: string) =>
  plan.sequence ? `E-mail ${stepsSent + 1}: ${text}` : text;

/**
 * The e-mail channel of the send loop: each recipient is mailed the campaign's e-mail (or their next one of a
 * sequence, on its day) through the user's mail server, one connection for a run, with an unsubscribe link and a
 * one-click unsubscribe header; without a mail server it goes to the user's outbox. A sent e-mail is also kept on
 * the contact.
 */
export const emailSending: SendChannel<Setup, Claim, Sent> = {
  channel: 'email',

  async begin(trx, ctx, campaignId, userId) {
    const campaign = await findEmailRun(trx, campaignId);
    if (!campaign) return null;
    const sequence = campaign.campaign_type === 'sequence';
    await markEmailLeftoversUnconfirmed(trx, campaignId, sequence);
    const steps = sequence
      ? await findSteps(trx, campaignId)
      : [{ subject: campaign.subject, body: campaign.body, delayDays: 0 }];
    const account = await findProfile(trx, userId);
    if (!account) return null;
    const settings = await findSmtpSettings(trx, userId, ctx.secretBox);
    const setup = { plan: { sequence, steps }, from: settings?.fromAddress ?? account.email, settings };
    return { status: campaign.status, perMinute: campaign.per_minute, setup };
  },

  async next(trx, campaignId, setup, now, userId) {
    const row = await findNextEmailRecipient(trx, campaignId, setup.plan.sequence ? now : null);
    if (!row) return null;
    const email = row.email?.trim() ?? null;
    let skip = emailSkipReason({ contactExists: !!row.existing, email, unsubscribed: false });
    // The consent gate: an address that unsubscribed from the user's e-mails gets no campaign e-mail.
    const reach = skip ? null : await decideForContact(trx, userId, row.contact_id, 'campaign-email', now);
    if (reach && !reach.decision.allowed) skip = reach.decision.reason;
    const contact = {
      firstName: row.first_name ?? '',
      lastName: row.last_name ?? '',
      email: email ?? '',
      phone: row.phone,
      company: row.company,
      title: row.title,
    };
    return {
      contactId: row.contact_id,
      skip,
      claim: { token: row.unsubscribe_token, email, contact, stepsSent: row.steps_sent },
      ...(reach && { consent: { contactId: row.contact_id, channel: 'campaign-email' as const, reach } }),
    };
  },

  nextDue: (trx, campaignId, setup) => (setup.plan.sequence ? findNextDue(trx, campaignId) : null),

  mark: (trx, campaignId, { contactId, skip, claim }, _setup, now) =>
    markEmailRecipient(
      trx,
      campaignId,
      contactId,
      skip ? { skip, email: claim.email } : { sendingAt: now, email: claim.email! },
    ),

  open: (ctx, setup) => (setup.settings ? ctx.sendSmtp.session(setup.settings) : null),

  async deliver(ctx, setup, claim, session): Promise<Outcome<Sent>> {
    const step = setup.plan.steps[claim.stepsSent]!;
    const link = unsubscribeUrl(ctx.publicUrl, claim.token);
    const subject = renderMergeFields(step.subject, claim.contact).trim();
    const text = `${renderMergeFields(step.body, claim.contact)}\n\n--\nUnsubscribe: ${link}\n`;
    const smtp = session as SmtpSession | null;
    if (!smtp) return { kind: 'sent', delivery: 'outbox', messageId: null, subject, text };
    try {
      const { messageId } = await smtp.send({
        to: claim.email!,
        subject,
        text,
        headers: { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      });
      return { kind: 'sent', delivery: 'smtp', messageId, subject, text };
    } catch (error) {
      if (error instanceof MailDeliveryError)
        return { kind: error.serverProblem ? 'server-down' : 'failed', reason: error.message };
      return { kind: 'failed', reason: 'The mail could not be sent.' };
    }
  },

  async record(trx, campaignId, userId, { contactId, claim }, outcome, setup, now) {
    const { plan } = setup;
    if (outcome.kind !== 'sent') {
      await recordEmailOutcome(trx, campaignId, contactId, {
        failed: aboutStep(plan, claim.stepsSent, outcome.reason),
      });
      return;
    }
    const following = plan.steps[claim.stepsSent + 1];
    await recordEmailOutcome(trx, campaignId, contactId, {
      stepsSent: claim.stepsSent + 1,
      sentAt: now,
      messageId: outcome.messageId,
      delivery: outcome.delivery,
      nextDueAt: following ? dueAfter(now, following.delayDays) : null,
    });
    await insertContactEmailIfPresent(trx, {
      userId,
      contactId,
      templateId: null,
      delivery: outcome.delivery,
      from: setup.from,
      to: claim.email!,
      subject: outcome.subject,
      content: outcome.text,
      messageId: outcome.messageId,
      sentAt: now,
    });
  },
};
