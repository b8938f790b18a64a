import { z } from 'zod';
import { BulkSelectionSchema } from '../contacts/bulk-selection.schema.ts';
import { mergeFieldCheck } from '../email/email.schema.ts';
import { PACE } from './campaign-pace.ts';
import {
  CampaignStatusSchema,
  RecipientCountsSchema,
  RecipientStateSchema,
} from './email-campaign.schema.ts';

/**
 * SMS campaigns (spec part 2 §2.3 "Create SMS campaign: name and contacts", §3 sms_campaigns; issue 12;
 * docs/decisions/019-sms-campaigns.md): one text message to each contact's phone, through the telephony provider,
 * with replies STOP / START / HELP handled as carriers expect.
 */
export const SMS_MESSAGES = {
  /** Spec part 2 §5.1: "the SMS wording is equivalent". */
  nameRequired: {
    title: 'Campaign name required',
    description: 'Please enter a name for your SMS campaign.',
  },
  messageRequired: 'Please write the text message your contacts will receive.',
  noSender: 'No number to send from: add a caller ID in Settings → Phone.',
  simulatorOnly: 'Replies can only be simulated on the built-in simulator.',
} as const;

/** The longest text we send (a provider splits it into segments; Twilio takes at most 1,600 characters). */
export const SMS_MAX_LENGTH = 1_600;

/** Why a recipient got no message (skipped), in the words the recipient list shows. */
export const SMS_SKIP_REASONS = {
  noPhone: 'No phone number',
  optedOut: 'Opted out (replied STOP)',
  doNotCall: 'On your do-not-call list',
  deleted: 'Contact deleted',
  canceled: 'Campaign canceled',
} as const;
export const SMS_UNCONFIRMED_REASON =
  'The server stopped while this message was being handed to the provider. It may or may not have been sent, so it was not sent again.';

/** What a reply means (carrier keywords, any case, surrounding spaces ignored). */
const STOP_WORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'];
const START_WORDS = ['START', 'UNSTOP'];
export type SmsKeyword = 'stop' | 'start' | 'help';
export function smsKeyword(body: string): SmsKeyword | null {
  const word = body.trim().toUpperCase();
  if (STOP_WORDS.includes(word)) return 'stop';
  if (START_WORDS.includes(word)) return 'start';
  if (word === 'HELP') return 'help';
  return null;
}

/**
 * The answer to HELP. STOP and START are not answered by us: the provider's own opt-out handling confirms them, and a
 * message to a number that just opted out would be refused (docs/decisions/019-sms-campaigns.md).
 */
export const SMS_REPLIES = {
  help: 'CallCRM: you get these messages from a sales team using CallCRM. Reply STOP to stop them, START to get them again.',
} as const;

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
/** A delivery status only moves forward: a late 'sent' never undoes 'delivered'. */
export const deliveryMovesForward = (from: SmsDelivery | null, to: SmsDelivery) =>
  from === null || DELIVERY_ORDER[to] > DELIVERY_ORDER[from];

/** How many segments a provider bills a text as (GSM-7: 160, or 153 each when split; otherwise 70, or 67). */
export function smsSegments(text: string): number {
  if (text.length === 0) return 0;
  // eslint-disable-next-line no-control-regex
  const gsm = /^[\x0A\x0D\x20-\x7E£¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ¤¡ÄÖÑÜ§¿äöñüà€]*$/.test(text);
  const [single, part] = gsm ? [160, 153] : [70, 67];
  return text.length <= single ? 1 : Math.ceil(text.length / part);
}

const NameSchema = z
  .string()
  .max(200, 'A campaign name has at most 200 characters')
  .transform((n) => n.trim())
  .refine((n) => n.length > 0, SMS_MESSAGES.nameRequired.description);

const Fields = {
  name: NameSchema,
  projectId: z.uuid('Invalid project id').nullish(),
  message: z
    .string()
    .refine((m) => m.trim().length > 0, SMS_MESSAGES.messageRequired)
    .pipe(z.string().max(SMS_MAX_LENGTH, `A text message has at most ${SMS_MAX_LENGTH} characters`)),
  perMinute: z.number().int().min(PACE.min).max(PACE.max).default(PACE.default),
};
const checkMerge = (c: { message: string }, ctx: z.RefinementCtx) =>
  mergeFieldCheck(c.message, ctx, 'message');

export const CreateSmsCampaignSchema = z
  .object({ ...Fields, selection: BulkSelectionSchema })
  .superRefine(checkMerge);
export type CreateSmsCampaignInput = z.input<typeof CreateSmsCampaignSchema>;

/** Save Campaign (spec part 2 §2.3, shared with e-mail): name, message, contacts added and removed; drafts only. */
export const UpdateSmsCampaignSchema = z
  .object({
    ...Fields,
    add: BulkSelectionSchema.optional(),
    remove: z.array(z.uuid('Invalid contact id')).max(10_000).optional(),
  })
  .superRefine(checkMerge);
export type UpdateSmsCampaignInput = z.input<typeof UpdateSmsCampaignSchema>;

export const SmsCampaignSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: CampaignStatusSchema,
  message: z.string(),
  perMinute: z.number().int(),
  projectId: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Why the campaign paused itself (the provider could not be reached), until it is resumed. */
  pauseReason: z.string().nullable(),
  counts: RecipientCountsSchema,
  /** Counts by the provider's delivery report. */
  delivered: z.number().int(),
});
export type SmsCampaign = z.infer<typeof SmsCampaignSchema>;
export const SmsCampaignListSchema = z.object({ campaigns: z.array(SmsCampaignSchema) });
export const SmsCampaignResponseSchema = z.object({ campaign: SmsCampaignSchema });

export const SmsRecipientSchema = z.object({
  contactId: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  state: RecipientStateSchema,
  reason: z.string().nullable(),
  delivery: SmsDeliverySchema.nullable(),
  /** The provider's words when delivery failed. */
  deliveryError: z.string().nullable(),
  sentAt: z.string().nullable(),
  /** The recipient's last reply to this campaign's number, if any. */
  reply: z.string().nullable(),
});
export type SmsRecipient = z.infer<typeof SmsRecipientSchema>;
export const SmsRecipientsPageSchema = z.object({
  recipients: z.array(SmsRecipientSchema),
  next: z.number().int().nullable(),
});

/** The simulator's "Simulate reply": the recipient answers with this text (STOP, HELP, anything). */
export const SimulateReplySchema = z.object({
  text: z.string().trim().min(1, 'Write the reply to simulate').max(SMS_MAX_LENGTH),
});
