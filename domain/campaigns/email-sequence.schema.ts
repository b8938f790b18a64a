import { z } from 'zod';
import { EMAIL_LIMITS, mergeFieldCheck } from '../email/email.schema.ts';
import { CampaignFormFields, ContactChangeFields, SelectionField } from './campaign.schema.ts';

/**
 * E-mail sequences ("Create e-mail sequence", "Sequences carry an emails list";
 * docs/decisions/018-email-sequences.md): several e-mails over time. Each step waits its delay in days (after
 * enrolment for the first, after the previous step for the others), then goes to every contact still in the
 * sequence.
 */
export const SEQUENCE_MESSAGES = {
  /**"A sequence uses the wording 'Sequence name required'". */
  nameRequired: {
    title: 'Sequence name required',
    description: 'Please enter a name for your email sequence.',
  },
  stepsRequired: 'Add at least one e-mail to the sequence.',
  enrollFailed: 'Sequence enrollment failed',
  notSequence: 'This campaign is not a sequence.',
  notEnrollable: 'This sequence has been canceled: nobody can join it any more.',
  notEditable:
    'This sequence has started: its e-mails can no longer change. Contacts can still join or leave it.',
} as const;

/** Why a contact left a sequence before its last e-mail, in the words the recipient list shows. */
export const SEQUENCE_EXIT_REASONS = {
  removed: 'Removed from the sequence',
  doNotCall: 'Marked do not call',
  notInterested: 'Marked not interested',
} as const;

/** At most this many e-mails in a sequence, each at most this many days after the one before. */
export const SEQUENCE_LIMITS = { steps: 10, delayDays: 365 } as const;
export const DAY_MS = 24 * 60 * 60 * 1000;

export const SequenceStepSchema = z.object({
  subject: z
    .string()
    .trim()
    .min(1, 'Each e-mail of the sequence needs a subject.')
    .max(EMAIL_LIMITS.subject, `A subject has at most ${EMAIL_LIMITS.subject} characters`),
  body: z
    .string()
    .refine((b) => b.trim().length > 0, 'Each e-mail of the sequence needs a message.')
    .pipe(z.string().max(EMAIL_LIMITS.content, `An e-mail has at most ${EMAIL_LIMITS.content} characters`)),
  delayDays: z
    .number()
    .int('A delay is a whole number of days')
    .min(0, 'A delay cannot be negative')
    .max(SEQUENCE_LIMITS.delayDays, `A delay is at most ${SEQUENCE_LIMITS.delayDays} days`),
});
export type SequenceStep = z.infer<typeof SequenceStepSchema>;

const SequenceNameSchema = z
  .string()
  .max(200, 'A sequence name has at most 200 characters')
  .transform((n) => n.trim())
  .refine((n) => n.length > 0, SEQUENCE_MESSAGES.nameRequired.description);

const StepsSchema = z
  .array(SequenceStepSchema)
  .min(1, SEQUENCE_MESSAGES.stepsRequired)
  .max(SEQUENCE_LIMITS.steps, `A sequence has at most ${SEQUENCE_LIMITS.steps} e-mails`);

const checkStepMerge = (s: { steps: SequenceStep[] }, ctx: z.RefinementCtx) =>
  s.steps.forEach((step, i) => {
    mergeFieldCheck(step.subject, ctx, `steps.${i}.subject`);
    mergeFieldCheck(step.body, ctx, `steps.${i}.body`);
  });

const SequenceFields = {
  name: SequenceNameSchema,
  description: z
    .string()
    .max(2000, 'A description has at most 2,000 characters')
    .transform((d) => d.trim() || null)
    .nullish(),
  ...CampaignFormFields,
  steps: StepsSchema,
};

/** Create Email Sequence (sequence name and contacts), with its e-mails. */
export const CreateEmailSequenceSchema = z
  .object({ ...SequenceFields, ...SelectionField })
  .superRefine(checkStepMerge);
export type CreateEmailSequenceInput = z.input<typeof CreateEmailSequenceSchema>;

/** Save Sequence: name, e-mails, pace, contacts added and removed; only while it is a draft. */
export const UpdateEmailSequenceSchema = z
  .object({ ...SequenceFields, ...ContactChangeFields })
  .superRefine(checkStepMerge);
export type UpdateEmailSequenceInput = z.input<typeof UpdateEmailSequenceSchema>;

/** The enroll-in-sequence call: one contact of the user joins the sequence. */
export const EnrollInSequenceSchema = z.object({ contactId: z.uuid('Invalid contact id') });

/** When a contact's next e-mail is due: `delayDays` after `from` (enrolment, or the previous e-mail). */
export const dueAfter = (from: Date, delayDays: number) => new Date(from.getTime() + delayDays * DAY_MS);

/** A recipient's progress through a sequence, as the recipient list says it. */
export function sequenceProgressText(
  recipient: { state: string; stepsSent: number; dueAt: string | null },
  stepCount: number,
  formatDate: (iso: string) => string,
): string {
  const sent = `${recipient.stepsSent} of ${stepCount} e-mails sent`;
  if (recipient.state === 'queued' && recipient.dueAt)
    return `${sent} · e-mail ${recipient.stepsSent + 1} due ${formatDate(recipient.dueAt)}`;
  return sent;
}
