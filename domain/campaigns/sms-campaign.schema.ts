import { z } from 'zod';
import { mergeFieldCheck } from '../email/email.schema.ts';
import type { MergeContact } from '../email/merge-fields.ts';
import { renderSms, SMS_MAX_LENGTH } from '../sms/sms-text.ts';
import {
  campaignNameSchema,
  CampaignCoreSchema,
  CampaignFormFields,
  ContactChangeFields,
  RecipientCoreSchema,
  recipientsPageSchema,
  SelectionField,
} from './campaign.schema.ts';
import { COMMON_SKIP_REASONS, unconfirmedReason } from './campaign-state.ts';

/**
 * SMS campaigns (docs/decisions/019-sms-campaigns.md): one text message to each contact's phone, through the
 * telephony provider, with replies STOP / START / HELP handled as carriers expect.
 */
export const SMS_MESSAGES = {
  /** The e-mail campaign's wording, for a text message. */
  nameRequired: {
    title: 'Campaign name required',
    description: 'Please enter a name for your SMS campaign.',
  },
  messageRequired: 'Please write the text message your contacts will receive.',
  noSender: 'No number to send from: add a caller ID in Settings → Phone.',
  simulatorOnly: 'Replies can only be simulated on the built-in simulator.',
  notSentTo: 'Only a contact who was sent this message can reply to it.',
  deleteFailed: 'Failed to delete SMS campaign',
} as const;

/** Why a recipient got no message (skipped), in the words the recipient list shows. */
export const SMS_SKIP_REASONS = {
  ...COMMON_SKIP_REASONS,
  noPhone: 'No phone number',
  optedOut: 'Opted out (replied STOP)',
  doNotCall: 'On your do-not-call list',
  tooLong: `The message is longer than ${SMS_MAX_LENGTH.toLocaleString('en-US')} characters once this contact's merge fields are filled in`,
} as const;
export const SMS_UNCONFIRMED_REASON = unconfirmedReason('message', 'the provider');

/**
 * Whether a recipient gets the text, from what is known of them when their turn comes: a deleted contact, one
 * without a usable phone number, a number that replied STOP, a number on the user's do-not-call list, and a text
 * that comes out longer than a provider takes once the contact's merge fields are filled in (a long company name
 * can do it) are skipped, in that order. Null: send it.
 */
export function smsSkipReason(facts: {
  contactExists: boolean;
  phone: string | null;
  optedOut: boolean;
  doNotCall: boolean;
  text: string;
}): string | null {
  if (!facts.contactExists) return SMS_SKIP_REASONS.deleted;
  if (!facts.phone) return SMS_SKIP_REASONS.noPhone;
  if (facts.optedOut) return SMS_SKIP_REASONS.optedOut;
  if (facts.doNotCall) return SMS_SKIP_REASONS.doNotCall;
  if (facts.text.length > SMS_MAX_LENGTH) return SMS_SKIP_REASONS.tooLong;
  return null;
}

/** The text a contact gets, and whether it may go (smsSkipReason). */
export function smsFor(
  message: string,
  contact: MergeContact | null,
  facts: { phone: string | null; optedOut: boolean; doNotCall: boolean },
): { text: string; skip: string | null } {
  const text = contact ? renderSms(message, contact) : '';
  return { text, skip: smsSkipReason({ contactExists: contact !== null, ...facts, text }) };
}

/** Delivery as the provider reports it after the message was handed over. */
export const SmsDeliverySchema = z.enum(['queued', 'sent', 'delivered', 'undelivered', 'failed']);
export type SmsDelivery = z.infer<typeof SmsDeliverySchema>;
const DELIVERY_ORDER: Record<SmsDelivery, number> = {
  queued: 0,
  sent: 1,
  delivered: 2,
  undelivered: 2,
  failed: 2,
};
/** A delivery status only moves forward: a late 'sent' never undoes 'delivered', and an outcome is final. */
export const deliveryMovesForward = (from: SmsDelivery | null, to: SmsDelivery) =>
  from === null || DELIVERY_ORDER[to] > DELIVERY_ORDER[from];

const Fields = {
  name: campaignNameSchema(SMS_MESSAGES.nameRequired.description),
  ...CampaignFormFields,
  message: z
    .string()
    .refine((m) => m.trim().length > 0, SMS_MESSAGES.messageRequired)
    .pipe(z.string().max(SMS_MAX_LENGTH, `A text message has at most ${SMS_MAX_LENGTH} characters`)),
};
const checkMerge = (c: { message: string }, ctx: z.RefinementCtx) =>
  mergeFieldCheck(c.message, ctx, 'message');

export const CreateSmsCampaignSchema = z.object({ ...Fields, ...SelectionField }).superRefine(checkMerge);
export type CreateSmsCampaignInput = z.input<typeof CreateSmsCampaignSchema>;

/** Save Campaign (shared with e-mail): name, message, contacts added and removed; drafts only. */
export const UpdateSmsCampaignSchema = z
  .object({ ...Fields, ...ContactChangeFields })
  .superRefine(checkMerge);
export type UpdateSmsCampaignInput = z.input<typeof UpdateSmsCampaignSchema>;

export const SmsCampaignSchema = CampaignCoreSchema.extend({
  message: z.string(),
  /** Counts by the provider's delivery report. */
  delivered: z.number().int(),
});
export type SmsCampaign = z.infer<typeof SmsCampaignSchema>;
export const SmsCampaignListSchema = z.object({ campaigns: z.array(SmsCampaignSchema) });
export const SmsCampaignResponseSchema = z.object({ campaign: SmsCampaignSchema });

export const SmsRecipientSchema = RecipientCoreSchema.extend({
  phone: z.string().nullable(),
  delivery: SmsDeliverySchema.nullable(),
  /** The provider's words when delivery failed. */
  deliveryError: z.string().nullable(),
  /** The recipient's last reply to this campaign's number, if any. */
  reply: z.string().nullable(),
});
export type SmsRecipient = z.infer<typeof SmsRecipientSchema>;
export const SmsRecipientsPageSchema = recipientsPageSchema(SmsRecipientSchema);

/** The simulator's "Simulate reply": the recipient answers with this text (STOP, HELP, anything). */
export const SimulateReplySchema = z.object({
  text: z.string().trim().min(1, 'Write the reply to simulate').max(SMS_MAX_LENGTH),
});
