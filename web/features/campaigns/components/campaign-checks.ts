import { toast } from 'sonner';
import { CAMPAIGN_MESSAGES } from '#domain/campaigns/campaign.schema.ts';
import { EMAIL_CAMPAIGN_MESSAGES } from '#domain/campaigns/email-campaign.schema.ts';
import { SEQUENCE_MESSAGES, type SequenceStep } from '#domain/campaigns/email-sequence.schema.ts';
import { SMS_MESSAGES } from '#domain/campaigns/sms-campaign.schema.ts';
import { ApiError } from '../../../lib/api-client.ts';

export const PROJECTS_CAMPAIGNS = '/projects?tab=campaigns';

type Refusal = { title: string; description: string };

/**
 * What is checked before any campaign is saved, each refusal with its toast: a name (in the channel's words), at
 * least one contact, then the channel's message (`problem`: what is missing from it, if anything).
 */
export function checkCampaign(
  nameRequired: Refusal,
  form: { name: string },
  contacts: number,
  problem: string | null,
): boolean {
  const refusal = !form.name.trim()
    ? nameRequired
    : contacts === 0
      ? CAMPAIGN_MESSAGES.contactsRequired
      : problem
        ? { title: 'Error', description: problem }
        : null;
  if (refusal) toast.error(refusal.title, { description: refusal.description });
  return refusal === null;
}

/** What an e-mail lacks: a subject, then a message. */
export const emailProblem = (form: { subject: string; body: string }) =>
  !form.subject.trim()
    ? EMAIL_CAMPAIGN_MESSAGES.subjectRequired
    : !form.body.trim()
      ? EMAIL_CAMPAIGN_MESSAGES.bodyRequired
      : null;

/** What a sequence lacks: an e-mail, then a subject and a message for each. */
export function sequenceProblem(steps: SequenceStep[]): string | null {
  if (steps.length === 0) return SEQUENCE_MESSAGES.stepsRequired;
  const incomplete = steps.findIndex((s) => !s.subject.trim() || !s.body.trim());
  if (incomplete < 0) return null;
  return `E-mail ${incomplete + 1} needs ${steps[incomplete]!.subject.trim() ? 'a message' : 'a subject'}.`;
}

/** What a text lacks: a message. */
export const smsProblem = (form: { message: string }) =>
  form.message.trim() ? null : SMS_MESSAGES.messageRequired;

/** A refused save shows the server's words (the first field at fault, when it names one). */
export function showSaveError(error: Error) {
  const detail = error instanceof ApiError && error.issues[0] ? error.issues[0].message : error.message;
  if (error instanceof ApiError && error.status === 401)
    return void toast.error(CAMPAIGN_MESSAGES.loginRequired.title, {
      description: CAMPAIGN_MESSAGES.loginRequired.description,
    });
  toast.error('Error', { description: detail || CAMPAIGN_MESSAGES.updateFailed });
}
