import { toast } from 'sonner';
import { CAMPAIGN_MESSAGES } from '#domain/campaigns/email-campaign.schema.ts';
import { SEQUENCE_MESSAGES, type SequenceStep } from '#domain/campaigns/email-sequence.schema.ts';
import { ApiError } from '../../../lib/api-client.ts';
import type { CampaignFields } from './campaign-message-fields.tsx';

export const PROJECTS_CAMPAIGNS = '/projects?tab=campaigns';

/** Spec part 2 §5.1: what is checked before a campaign is saved, each refusal with its toast. */
export function checkCampaign(fields: CampaignFields, contacts: number): boolean {
  if (!fields.name.trim()) {
    toast.error(CAMPAIGN_MESSAGES.nameRequired.title, {
      description: CAMPAIGN_MESSAGES.nameRequired.description,
    });
    return false;
  }
  if (contacts === 0) {
    toast.error(CAMPAIGN_MESSAGES.contactsRequired.title, {
      description: CAMPAIGN_MESSAGES.contactsRequired.description,
    });
    return false;
  }
  const missing = !fields.subject.trim()
    ? CAMPAIGN_MESSAGES.subjectRequired
    : !fields.body.trim()
      ? CAMPAIGN_MESSAGES.bodyRequired
      : null;
  if (missing) {
    toast.error('Error', { description: missing });
    return false;
  }
  return true;
}

/** Spec part 2 §5.1 for a sequence ('Sequence name required'), then each of its e-mails needs a subject and a message. */
export function checkSequence(fields: CampaignFields, steps: SequenceStep[], contacts: number): boolean {
  if (!fields.name.trim()) {
    toast.error(SEQUENCE_MESSAGES.nameRequired.title, {
      description: SEQUENCE_MESSAGES.nameRequired.description,
    });
    return false;
  }
  if (!checkCampaign({ ...fields, subject: 'checked below', body: 'checked below' }, contacts)) return false;
  if (steps.length === 0) {
    toast.error('Error', { description: SEQUENCE_MESSAGES.stepsRequired });
    return false;
  }
  const incomplete = steps.findIndex((s) => !s.subject.trim() || !s.body.trim());
  if (incomplete >= 0) {
    toast.error('Error', {
      description: `E-mail ${incomplete + 1} needs ${steps[incomplete]!.subject.trim() ? 'a message' : 'a subject'}.`,
    });
    return false;
  }
  return true;
}

/** A refused save shows the server's words (the first field at fault, when it names one). */
export function showSaveError(error: Error) {
  const detail = error instanceof ApiError && error.issues[0] ? error.issues[0].message : error.message;
  if (error instanceof ApiError && error.status === 401)
    return void toast.error(CAMPAIGN_MESSAGES.loginRequired.title, {
      description: CAMPAIGN_MESSAGES.loginRequired.description,
    });
  toast.error('Error', { description: detail || CAMPAIGN_MESSAGES.updateFailed });
}
