import { toast } from 'sonner';
import { CAMPAIGN_MESSAGES } from '#domain/campaigns/email-campaign.schema.ts';
import { SMS_MESSAGES } from '#domain/campaigns/sms-campaign.schema.ts';
import type { SmsFields } from './sms-message-fields.tsx';

/** Spec part 2 §5.1 (the SMS wording): a name, at least one contact, then a message. */
export function checkSmsCampaign(fields: SmsFields, contacts: number): boolean {
  const refusal = !fields.name.trim()
    ? SMS_MESSAGES.nameRequired
    : contacts === 0
      ? CAMPAIGN_MESSAGES.contactsRequired
      : !fields.message.trim()
        ? { title: 'Error', description: SMS_MESSAGES.messageRequired }
        : null;
  if (refusal) toast.error(refusal.title, { description: refusal.description });
  return refusal === null;
}
