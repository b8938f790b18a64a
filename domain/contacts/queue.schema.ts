import { z } from 'zod';
import { BulkSelectionSchema, MAX_SELECTED_IDS } from './bulk-selection.schema.ts';
import { ContactFilterSchema, ContactTabSchema } from './contact-list.schema.ts';

/** The per-user default queue (contact sync). */
export const DEFAULT_QUEUE_ID = 'default-all-contacts';
export const DEFAULT_QUEUE_NAME = 'All Synced Contacts';

export const QueueSummarySchema = z.object({
  id: z.string(),
  queueId: z.string(),
  name: z.string(),
  total: z.number().int(),
  completed: z.number().int(),
  createdAt: z.string(),
  /** The project the queue belongs to, if any. */
  projectId: z.string().nullable(),
  /**
   * Contacts still joining in the background (a selection larger than QUEUE_FILL_INLINE_MAX): how many have joined
   * of how many the selection matched, and why the last attempt failed if it did (it is retried). Null when none.
   */
  filling: z
    .object({ added: z.number().int(), expected: z.number().int(), error: z.string().nullable() })
    .nullable(),
});
export type QueueSummary = z.infer<typeof QueueSummarySchema>;
export const QueueListSchema = z.object({ queues: z.array(QueueSummarySchema) });

export const AddToQueueResultSchema = z.object({
  added: z.number().int(),
  alreadyInQueue: z.number().int(),
  /** Contacts joining in the background (a large selection); 0 when all were added at once. */
  adding: z.number().int(),
});

/**
 * A selection of up to this many contacts joins a queue in the request; a larger one (a whole filter of a million
 * contacts) joins in the background, in name order, and the queue can be called while it fills.
 */
export const QUEUE_FILL_INLINE_MAX = 5_000;
export type AddToQueueResult = z.infer<typeof AddToQueueResultSchema>;

/** What a queue save refuses, as title and description. */
export const QUEUE_MESSAGES = {
  nameRequired: { title: 'Queue name required', description: 'Please provide a name for your queue' },
  noContacts: {
    title: 'No contacts selected',
    description: 'Please select at least one contact for your queue',
  },
  defaultQueue: 'The default queue All Synced Contacts is kept by the CRM: it cannot be renamed or deleted.',
  loadFailed: {
    title: 'Error loading queue',
    description: 'Could not load queue details. Please try again.',
  },
  listFailed: 'Failed to load call queues',
  updateFailed: 'Failed to update queue. Please try again.',
  deleteFailed: 'Failed to delete queue. Please try again.',
  addFailed: 'Could not update call queue',
  stillFilling: 'This queue is still adding contacts. Try again when it has finished.',
} as const;

export const QUEUE_NAME_MAX = 200;

const QueueNameSchema = z
  .string()
  .max(QUEUE_NAME_MAX, `A queue name has at most ${QUEUE_NAME_MAX} characters`)
  .transform((name) => name.trim())
  .refine((name) => name.length > 0, QUEUE_MESSAGES.nameRequired.description);

/** Create Queue: a name and the contacts, ticked ids or every contact matching a filter. */
const ProjectIdSchema = z.uuid('Invalid project id').nullish();

export const CreateQueueSchema = z.object({
  name: QueueNameSchema,
  projectId: ProjectIdSchema,
  selection: z.union([
    z.object({
      ids: z
        .array(z.uuid('Invalid contact id'))
        .min(1, QUEUE_MESSAGES.noContacts.description)
        .max(MAX_SELECTED_IDS),
    }),
    z.object({ allMatching: ContactFilterSchema.extend({ tab: ContactTabSchema.default('all') }) }),
    z.object({ importId: z.uuid('Invalid import id') }),
  ]),
});
export type CreateQueueInput = z.input<typeof CreateQueueSchema>;

/**
 * Save Queue on the edit screen: the name, and the contacts added (ticked, or every contact
 * matching a search) and removed, saved together or not at all.
 */
export const UpdateQueueSchema = z.object({
  name: QueueNameSchema,
  projectId: ProjectIdSchema,
  add: BulkSelectionSchema.optional(),
  remove: z.array(z.uuid('Invalid contact id')).max(MAX_SELECTED_IDS).optional(),
});
export type UpdateQueueInput = z.input<typeof UpdateQueueSchema>;

/** Contacts taken out of a queue (Edit Queue's remove); ids not in it are ignored. */
export const RemoveQueueMembersSchema = z.object({
  ids: z.array(z.uuid('Invalid contact id')).min(1, 'No contacts selected').max(MAX_SELECTED_IDS),
});

export const QueueResponseSchema = z.object({ queue: QueueSummarySchema });

/** One contact of a queue, in the queue's order, as the edit screen lists them. */
export const QueueMemberSchema = z.object({
  contactId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string().nullable(),
  company: z.string().nullable(),
  completed: z.boolean(),
});
export const QueueMembersPageSchema = z.object({
  members: z.array(QueueMemberSchema),
  /** Ask for the next page with ?after=this; null on the last page. */
  next: z.string().nullable(),
});
export const QueueMembersQuerySchema = z.object({
  after: z
    .string()
    .regex(/^\d{1,18}$/, 'Invalid page cursor')
    .optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  /** Only the queue's contacts matching this, as the contact list's search matches (the dialer's Contacts tab). */
  search: z.string().trim().max(200).optional(),
});
export const RemovedMembersSchema = z.object({ removed: z.number().int() });

/** The import dialog's Call Queues tab: every contact of another of the user's queues joins this one. */
export const AddFromQueueSchema = z.object({ sourceQueueId: z.uuid('Invalid queue id') });
