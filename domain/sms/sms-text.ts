import { renderMergeFields, type MergeContact } from '../email/merge-fields.ts';

/** The longest text we send (a provider splits it into segments; Twilio takes at most 1,600 characters). */
export const SMS_MAX_LENGTH = 1_600;

/** How many segments a provider bills a text as (GSM-7: 160, or 153 each when split; otherwise 70, or 67). */
export function smsSegments(text: string): number {
  if (text.length === 0) return 0;
  // eslint-disable-next-line no-control-regex
  const gsm = /^[\x0A\x0D\x20-\x7E£¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ¤¡ÄÖÑÜ§¿äöñüà€]*$/.test(text);
  const [single, part] = gsm ? [160, 153] : [70, 67];
  return text.length <= single ? 1 : Math.ceil(text.length / part);
}

/** The text one contact gets: the message with its merge fields filled in, trimmed. */
export const renderSms = (message: string, contact: MergeContact) =>
  renderMergeFields(message, contact).trim();
