import { z } from 'zod';
import { BulkSelectionSchema } from '../contacts/bulk-selection.schema.ts';
import { PACE, PerMinuteSchema } from './campaign-pace.ts';
import { CampaignStatusSchema, RecipientCountsSchema, RecipientStateSchema } from './campaign-state.ts';

/** What every campaign screen says, whatever the campaign sends. */
export const CAMPAIGN_MESSAGES = {
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
  notFound: 'Campaign not found',
  notDraft: 'This campaign has been sent: its contacts and message can no longer change.',
  notSendable: 'This campaign cannot be sent in its current state.',
} as const;

/** The most contacts one campaign takes (a larger list is better split, and is refused with this message). */
export const CAMPAIGN_MAX_RECIPIENTS = 100_000;
export const TOO_MANY_RECIPIENTS = `A campaign can have at most ${CAMPAIGN_MAX_RECIPIENTS.toLocaleString('en-US')} contacts. Narrow the selection, or split it into several campaigns.`;

/** A campaign's (or a sequence's) name: trimmed, 1–200 characters; `required` is what an empty one is told. */
export const campaignNameSchema = (required: string) =>
  z
    .string()
    .max(200, 'A campaign name has at most 200 characters')
    .transform((n) => n.trim())
    .refine((n) => n.length > 0, required);

/** The fields every campaign's create and save forms share (besides the channel's message). */
export const CampaignFormFields = {
  projectId: z.uuid('Invalid project id').nullish(),
  perMinute: PerMinuteSchema.default(PACE.default),
};
/** Contacts a campaign starts with (Create). */
export const SelectionField = { selection: BulkSelectionSchema };
/** Contacts added and removed on Save. */
export const ContactChangeFields = {
  add: BulkSelectionSchema.optional(),
  remove: z.array(z.uuid('Invalid contact id')).max(10_000).optional(),
};

/** What every campaign is, whatever it sends; each channel's schema adds its message and its own figures. */
export const CampaignCoreSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: CampaignStatusSchema,
  perMinute: z.number().int(),
  projectId: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Why the campaign paused itself (its mail server or provider failed), until it is resumed. */
  pauseReason: z.string().nullable(),
  counts: RecipientCountsSchema,
});
export type CampaignCore = z.infer<typeof CampaignCoreSchema>;

/** What every recipient row shows; each channel adds where it went and what came back. */
export const RecipientCoreSchema = z.object({
  contactId: z.string(),
  name: z.string(),
  state: RecipientStateSchema,
  reason: z.string().nullable(),
  sentAt: z.string().nullable(),
});

export const RecipientsQuerySchema = z.object({
  after: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  state: RecipientStateSchema.optional(),
});
export type RecipientsQuery = z.infer<typeof RecipientsQuerySchema>;

/** A page of recipients in send order; ask for the next with ?after=next (null on the last page). */
export const recipientsPageSchema = <R extends z.ZodType>(recipient: R) =>
  z.object({ recipients: z.array(recipient), next: z.number().int().nullable() });

export const AddedSchema = z.object({ added: z.number().int() });
