import { z } from 'zod';
import { EMAIL_LIMITS, isSendableAddress, mergeFieldCheck } from '../email/email.schema.ts';
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
import { SequenceStepSchema } from './email-sequence.schema.ts';

/** What e-mail campaign screens say (besides what every campaign says). */
export const EMAIL_CAMPAIGN_MESSAGES = {
  nameRequired: {
    title: 'Campaign name required',
    description: 'Please enter a name for your email campaign.',
  },
  deleteFailedServer: 'Failed to delete email campaign',
  subjectRequired: 'Please enter a subject for your e-mail.',
  bodyRequired: 'Please write the e-mail your contacts will receive.',
  isSequence: 'This campaign is a sequence: save it as a sequence.',
} as const;

/** Why a recipient was not mailed (skipped), in the words the recipient list shows. */
export const SKIP_REASONS = {
  ...COMMON_SKIP_REASONS,
  noEmail: 'No e-mail address',
  unsubscribed: 'Unsubscribed',
} as const;
export const UNCONFIRMED_REASON = unconfirmedReason('e-mail', 'the mail server');

/**
 * Whether a recipient is mailed, from what is known of them when their turn comes: a deleted contact, one without a
 * usable address (none, or a cold lead's placeholder), and an address that unsubscribed from this sender are
 * skipped, in that order of precedence. Null: mail them.
 */
export function emailSkipReason(facts: {
  contactExists: boolean;
  email: string | null;
  unsubscribed: boolean;
}): string | null {
  if (!facts.contactExists) return SKIP_REASONS.deleted;
  if (!facts.email || !isSendableAddress(facts.email)) return SKIP_REASONS.noEmail;
  if (facts.unsubscribed) return SKIP_REASONS.unsubscribed;
  return null;
}

const MessageFields = {
  subject: z
    .string()
    .trim()
    .min(1, EMAIL_CAMPAIGN_MESSAGES.subjectRequired)
    .max(EMAIL_LIMITS.subject, `A subject has at most ${EMAIL_LIMITS.subject} characters`),
  body: z
    .string()
    .refine((b) => b.trim().length > 0, EMAIL_CAMPAIGN_MESSAGES.bodyRequired)
    .pipe(z.string().max(EMAIL_LIMITS.content, `An e-mail has at most ${EMAIL_LIMITS.content} characters`)),
};
const Fields = {
  name: campaignNameSchema(EMAIL_CAMPAIGN_MESSAGES.nameRequired.description),
  ...CampaignFormFields,
  ...MessageFields,
};

const checkMerge = (m: { subject: string; body: string }, ctx: z.RefinementCtx) => {
  mergeFieldCheck(m.subject, ctx, 'subject');
  mergeFieldCheck(m.body, ctx, 'body');
};

/**
 * Create Campaign: a name, the message and the contacts, ticked or every contact matching a filter (a one-time
 * campaign; sequences have their own screen).
 */
export const CreateEmailCampaignSchema = z.object({ ...Fields, ...SelectionField }).superRefine(checkMerge);
export type CreateEmailCampaignInput = z.input<typeof CreateEmailCampaignSchema>;

/** Save Campaign: name, message, pace, contacts added and removed; only while it is a draft. */
export const UpdateEmailCampaignSchema = z
  .object({ ...Fields, ...ContactChangeFields })
  .superRefine(checkMerge);
export type UpdateEmailCampaignInput = z.input<typeof UpdateEmailCampaignSchema>;

export const EmailCampaignSchema = CampaignCoreSchema.extend({
  type: z.enum(['campaign', 'sequence']),
  subject: z.string(),
  body: z.string(),
  /** What a sequence is for; null for a one-time campaign, or a sequence without one. */
  description: z.string().nullable(),
  /** A sequence's number of e-mails (1 for a one-time campaign). */
  stepCount: z.number().int(),
  /** A sequence's e-mails, in order; on one campaign's own page only (lists leave them out). */
  steps: z.array(SequenceStepSchema).optional(),
});
export type EmailCampaign = z.infer<typeof EmailCampaignSchema>;
export const EmailCampaignListSchema = z.object({ campaigns: z.array(EmailCampaignSchema) });
export const EmailCampaignResponseSchema = z.object({ campaign: EmailCampaignSchema });

export const RecipientSchema = RecipientCoreSchema.extend({
  email: z.string().nullable(),
  /** 'outbox' when no mail server was configured: saved for the user, not sent. */
  delivery: z.enum(['smtp', 'outbox']).nullable(),
  /** E-mails of a sequence handed over so far (for a one-time campaign: 1 once sent). */
  stepsSent: z.number().int(),
  /** When a sequence recipient's next e-mail is due; null once it is done or before the sequence starts. */
  dueAt: z.string().nullable(),
});
export type Recipient = z.infer<typeof RecipientSchema>;
export const RecipientsPageSchema = recipientsPageSchema(RecipientSchema);
