import { z } from 'zod';
import { BulkSelectionSchema } from '../contacts/bulk-selection.schema.ts';
import { EMAIL_LIMITS, mergeFieldCheck } from '../email/email.schema.ts';
import { PACE } from './campaign-pace.ts';
import { SequenceStepSchema } from './email-sequence.schema.ts';

/** Spec part 2 §5.1, §8.1: what campaign screens say. */
export const CAMPAIGN_MESSAGES = {
  nameRequired: {
    title: 'Campaign name required',
    description: 'Please enter a name for your email campaign.',
  },
  contactsRequired: {
    title: 'No contacts selected',
    description: 'Please select at least one contact for your campaign.',
  },
  loginRequired: {
    title: 'Authentication required',
    description: 'You must be logged in to create a campaign.',
  },
  loadFailed: {
    title: 'Error loading campaign',
    description: 'Could not load campaign details. Please try again.',
  },
  updateFailed: 'Failed to update campaign. Please try again.',
  deleteFailed: 'Failed to delete campaign. Please try again.',
  deleteFailedServer: 'Failed to delete email campaign',
  subjectRequired: 'Please enter a subject for your e-mail.',
  bodyRequired: 'Please write the e-mail your contacts will receive.',
  notFound: 'Campaign not found',
  notDraft: 'This campaign has been sent: its contacts and message can no longer change.',
  notSendable: 'This campaign cannot be sent in its current state.',
  isSequence: 'This campaign is a sequence: save it as a sequence.',
} as const;

export const CampaignStatusSchema = z.enum(['draft', 'sending', 'paused', 'sent', 'canceled']);
export type CampaignStatus = z.infer<typeof CampaignStatusSchema>;
export const RecipientStateSchema = z.enum(['queued', 'sending', 'sent', 'failed', 'skipped', 'unconfirmed']);
export type RecipientState = z.infer<typeof RecipientStateSchema>;

/** Why a recipient was not mailed (skipped), in the words the recipient list shows. */
export const SKIP_REASONS = {
  noEmail: 'No e-mail address',
  unsubscribed: 'Unsubscribed',
  deleted: 'Contact deleted',
  canceled: 'Campaign canceled',
} as const;
export const UNCONFIRMED_REASON =
  'The server stopped while this e-mail was being handed to the mail server. It may or may not have been sent, so it was not sent again.';

/** The most contacts one campaign takes (a larger list is better split, and is refused with this message). */
export const CAMPAIGN_MAX_RECIPIENTS = 100_000;
export const TOO_MANY_RECIPIENTS = `A campaign can have at most ${CAMPAIGN_MAX_RECIPIENTS.toLocaleString('en-US')} contacts. Narrow the selection, or split it into several campaigns.`;

export { PACE } from './campaign-pace.ts';

const NameSchema = z
  .string()
  .max(200, 'A campaign name has at most 200 characters')
  .transform((n) => n.trim())
  .refine((n) => n.length > 0, CAMPAIGN_MESSAGES.nameRequired.description);

const MessageFields = {
  subject: z
    .string()
    .trim()
    .min(1, CAMPAIGN_MESSAGES.subjectRequired)
    .max(EMAIL_LIMITS.subject, `A subject has at most ${EMAIL_LIMITS.subject} characters`),
  body: z
    .string()
    .refine((b) => b.trim().length > 0, CAMPAIGN_MESSAGES.bodyRequired)
    .pipe(z.string().max(EMAIL_LIMITS.content, `An e-mail has at most ${EMAIL_LIMITS.content} characters`)),
  perMinute: z.number().int().min(PACE.min).max(PACE.max).default(PACE.default),
};

const checkMerge = (m: { subject: string; body: string }, ctx: z.RefinementCtx) => {
  mergeFieldCheck(m.subject, ctx, 'subject');
  mergeFieldCheck(m.body, ctx, 'body');
};

/**
 * Create Campaign (spec part 2 §2.3): a name, the type (a one-time campaign here; sequences have their own screen),
 * the message and the contacts, ticked or every contact matching a filter.
 */
export const CreateEmailCampaignSchema = z
  .object({
    name: NameSchema,
    projectId: z.uuid('Invalid project id').nullish(),
    ...MessageFields,
    selection: BulkSelectionSchema,
  })
  .superRefine(checkMerge);
export type CreateEmailCampaignInput = z.input<typeof CreateEmailCampaignSchema>;

/** Save Campaign (spec part 2 §2.3): name, message, pace, contacts added and removed; only while it is a draft. */
export const UpdateEmailCampaignSchema = z
  .object({
    name: NameSchema,
    projectId: z.uuid('Invalid project id').nullish(),
    ...MessageFields,
    add: BulkSelectionSchema.optional(),
    remove: z.array(z.uuid('Invalid contact id')).max(10_000).optional(),
  })
  .superRefine(checkMerge);
export type UpdateEmailCampaignInput = z.input<typeof UpdateEmailCampaignSchema>;

export const RecipientCountsSchema = z.object({
  total: z.number().int(),
  queued: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  unconfirmed: z.number().int(),
});
export type RecipientCounts = z.infer<typeof RecipientCountsSchema>;

export const EmailCampaignSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(['campaign', 'sequence']),
  status: CampaignStatusSchema,
  subject: z.string(),
  body: z.string(),
  perMinute: z.number().int(),
  projectId: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Why the campaign paused itself (its mail server failed), until it is resumed. */
  pauseReason: z.string().nullable(),
  counts: RecipientCountsSchema,
  /** A sequence's number of e-mails (1 for a one-time campaign). */
  stepCount: z.number().int(),
  /** A sequence's e-mails, in order; on one campaign's own page only (lists leave them out). */
  steps: z.array(SequenceStepSchema).optional(),
});
export type EmailCampaign = z.infer<typeof EmailCampaignSchema>;
export const EmailCampaignListSchema = z.object({ campaigns: z.array(EmailCampaignSchema) });
export const EmailCampaignResponseSchema = z.object({ campaign: EmailCampaignSchema });

export const RecipientSchema = z.object({
  contactId: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  state: RecipientStateSchema,
  reason: z.string().nullable(),
  /** 'outbox' when no mail server was configured: saved for the user, not sent. */
  delivery: z.enum(['smtp', 'outbox']).nullable(),
  sentAt: z.string().nullable(),
  /** E-mails of a sequence handed over so far (for a one-time campaign: 1 once sent). */
  stepsSent: z.number().int(),
  /** When a sequence recipient's next e-mail is due; null once it is done or before the sequence starts. */
  dueAt: z.string().nullable(),
});
export type Recipient = z.infer<typeof RecipientSchema>;
export const RecipientsQuerySchema = z.object({
  after: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  state: RecipientStateSchema.optional(),
});
export const RecipientsPageSchema = z.object({
  recipients: z.array(RecipientSchema),
  /** Ask for the next page with ?after=this; null on the last page. */
  next: z.number().int().nullable(),
});

/** Remaining = queued; percent done = everything that has an outcome (sent, failed, skipped, unconfirmed). */
export function campaignProgress(counts: RecipientCounts): { done: number; percent: number } {
  const done = counts.total - counts.queued;
  return { done, percent: counts.total === 0 ? 0 : Math.round((done / counts.total) * 100) };
}

/**
 * The actions a campaign's state allows. Contacts join a one-time campaign only while it is a draft; they join a
 * sequence until it is canceled (a finished sequence starts again for them).
 */
export function campaignActions(status: CampaignStatus, type: EmailCampaign['type'] = 'campaign') {
  return {
    edit: status === 'draft',
    enroll: type === 'sequence' ? status !== 'canceled' : status === 'draft',
    leave: type === 'sequence' && (status === 'sending' || status === 'paused' || status === 'sent'),
    send: status === 'draft',
    pause: status === 'sending',
    resume: status === 'paused',
    cancel: status === 'sending' || status === 'paused',
  };
}
