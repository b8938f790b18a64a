import { SMS_MESSAGES, SMS_UNCONFIRMED_REASON, smsFor } from '#domain/campaigns/sms-campaign.schema.ts';
import { ProviderError } from '../../telephony/telephony-provider.ts';
import { findDefaultCallerId } from '../caller-ids/public.ts';
import type { Outcome, SendChannel, SendContext } from './campaign-send.ts';
import { decideForContact } from '../consent/public.ts';
import {
  deferSmsRecipient,
  findFirstSmsWaitEnd,
  findNextSmsRecipient,
  findSmsRun,
  markSmsLeftoversUnconfirmed,
  markSmsRecipient,
  recordSmsOutcome,
} from './sms-sends.repository.ts';

/** A provider that has not answered a send by then may or may not have taken it: the recipient is unconfirmed. */
const SEND_TIMEOUT_MS = 15_000;

type Setup = { message: string; from: string };
type Claim = { ref: string; phone: string | null; text: string };
type Sent = { providerMessageId: string };

/** Hands one text to the provider: its own refusal fails the recipient; no answer at all leaves it unconfirmed. */
async function handOver(ctx: SendContext, from: string, claim: Claim): Promise<Outcome<Sent>> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>(
    (resolve) => (timer = setTimeout(() => resolve('timeout'), SEND_TIMEOUT_MS)),
  );
  try {
    const answer = await Promise.race([
      ctx.telephony.sms.send({ ref: claim.ref, from, to: claim.phone!, body: claim.text }),
      timeout,
    ]);
    if (answer === 'timeout')
      return {
        kind: 'unconfirmed',
        reason: `The provider did not answer within ${SEND_TIMEOUT_MS / 1000} s. ${SMS_UNCONFIRMED_REASON}`,
      };
    return { kind: 'sent', providerMessageId: answer.providerMessageId };
  } catch (error) {
    if (error instanceof ProviderError) return { kind: 'failed', reason: error.message };
    return { kind: 'server-down', reason: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The SMS channel of the send loop: each recipient's text (merge fields filled in, checked for length once
 * filled) goes through the telephony provider from the user's default caller ID (else the instance's); its delivery
 * report arrives later by webhook. Without any number to send from, the campaign pauses and says so.
 */
export const smsSending: SendChannel<Setup, Claim, Sent> = {
  channel: 'sms',

  async begin(trx, ctx, campaignId, userId) {
    await markSmsLeftoversUnconfirmed(trx, campaignId);
    const campaign = await findSmsRun(trx, campaignId);
    if (!campaign) return null;
    const from = (await findDefaultCallerId(trx, userId)) ?? ctx.defaultCallerId;
    const run = { status: campaign.status, perMinute: campaign.per_minute };
    return from
      ? { ...run, setup: { message: campaign.message, from } }
      : { ...run, pause: SMS_MESSAGES.noSender };
  },

  async next(trx, campaignId, setup, now, userId) {
    const row = await findNextSmsRecipient(trx, campaignId, now);
    if (!row) return null;
    const contact = row.existing
      ? {
          firstName: row.first_name ?? '',
          lastName: row.last_name ?? '',
          email: row.email ?? '',
          phone: row.phone_e164,
          company: row.company,
          title: row.title,
        }
      : null;
    const { text, skip } = smsFor(setup.message, contact, {
      phone: row.phone_e164,
      optedOut: false,
      doNotCall: false,
    });
    const claim = { ref: row.send_ref, phone: row.phone_e164, text };
    if (skip) return { contactId: row.contact_id, skip, claim };
    // The consent gate: do-not-call, a STOP from the number, calling hours where the contact is. Outside their
    // hours they wait until the window opens; a refusal that lasts skips them with the gate's words.
    const reach = await decideForContact(trx, userId, row.contact_id, 'text', now);
    if (!reach) return { contactId: row.contact_id, skip: null, claim };
    const { decision } = reach;
    const consent = {
      contactId: row.contact_id,
      channel: 'text' as const,
      reach,
      waiting: !decision.allowed && decision.retryAt !== null,
    };
    if (decision.allowed) return { contactId: row.contact_id, skip: null, claim, consent };
    if (decision.retryAt)
      return { contactId: row.contact_id, skip: null, defer: decision.retryAt, claim, consent };
    return { contactId: row.contact_id, skip: decision.reason, claim, consent };
  },

  nextDue: (trx, campaignId) => findFirstSmsWaitEnd(trx, campaignId),

  mark: (trx, campaignId, { contactId, skip, defer, claim }, setup, now) =>
    defer
      ? deferSmsRecipient(trx, campaignId, contactId, defer)
      : markSmsRecipient(
          trx,
          campaignId,
          contactId,
          skip ? { skip, phone: claim.phone } : { sendingAt: now, phone: claim.phone!, from: setup.from },
        ),

  deliver: (ctx, setup, claim) => handOver(ctx, setup.from, claim),

  record: (trx, campaignId, _userId, { contactId }, outcome, _setup, now) =>
    recordSmsOutcome(
      trx,
      campaignId,
      contactId,
      outcome.kind === 'sent'
        ? { sentAt: now, providerMessageId: outcome.providerMessageId }
        : { state: outcome.kind, reason: outcome.reason },
    ),
};
