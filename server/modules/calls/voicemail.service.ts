import { formatPhoneForDisplay } from '#domain/contacts/phone.ts';
import {
  DEFAULT_VOICEMAIL_GREETING,
  formatRecordingLength,
  VOICEMAIL_MAX_SECONDS,
  VOICEMAIL_MESSAGES,
} from '#domain/recordings/voicemail.ts';
import type { DbExecutor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import type { WebhookReply } from '../../telephony/telephony-provider.ts';
import { notifyUser } from '../notifications/public.ts';
import { findGreeting, signedRecordingUrl } from '../recordings/public.ts';
import { contactName } from './incoming-calls.repository.ts';

/**
 * What a caller nobody answered hears (decision 029): the user's recorded greeting (a signed URL the provider
 * fetches), else their written one, else the default; then the tone and up to two minutes to speak.
 */
export async function voicemailReply(
  ctx: AppContext,
  trx: DbExecutor,
  call: { id: string; user_id: string },
): Promise<WebhookReply> {
  const greeting = await findGreeting(trx, call.user_id);
  return ctx.telephony.incoming.voicemailReply({
    callId: call.id,
    greeting: greeting?.recording_id
      ? { audioUrl: signedRecordingUrl(ctx.publicUrl, ctx.urlSigningKey, greeting.recording_id, ctx.clock()) }
      : { text: greeting?.greeting_text ?? DEFAULT_VOICEMAIL_GREETING },
    maxSeconds: VOICEMAIL_MAX_SECONDS,
  });
}

/** The caller is done speaking (the Record action): they hear the thanks, and the call ends. */
export function voicemailLeft(ctx: AppContext): WebhookReply {
  return ctx.telephony.incoming.sayReply(VOICEMAIL_MESSAGES.thanks);
}

/** The owner hears of a new voicemail (Settings → Notifications, missed calls). */
export async function notifyVoicemail(
  trx: DbExecutor,
  call: { id: string; user_id: string; contact_id: string | null; from_number: string },
  recordingId: string,
  seconds: number,
) {
  const contact = call.contact_id ? await contactName(trx, call.contact_id) : undefined;
  const number = formatPhoneForDisplay(call.from_number);
  const who = contact ? `${contact.first_name} ${contact.last_name}`.trim() : number;
  await notifyUser(trx, {
    userId: call.user_id,
    kind: 'voicemail',
    subject: recordingId,
    title: `Voicemail from ${who} (${formatRecordingLength(seconds)})`,
    body: contact
      ? `${who} (${number}) left a message. Play it on their page.`
      : `${number} left a message. Play it in the Call History, or add them as a contact.`,
    link: call.contact_id ? `/contacts/${call.contact_id}` : '/power-dialer',
  });
}
