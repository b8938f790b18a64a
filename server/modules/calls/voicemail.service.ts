import { formatPhoneForDisplay } from '#domain/contacts/phone.ts';
import {
  DEFAULT_VOICEMAIL_GREETING,
  formatRecordingLength,
  VOICEMAIL_MAX_SECONDS,
  VOICEMAIL_MESSAGES,
  VOICEMAIL_MIN_SECONDS,
} from '#domain/recordings/voicemail.ts';
import { withActor, type DbExecutor } from '../../db/database.ts';
import { enqueueJob } from '../../jobs/enqueue-job.ts';
import type { JobTask } from '../../jobs/job-runner.ts';
import type { AppContext } from '../../app-context.ts';
import type { WebhookReply } from '../../telephony/telephony-provider.ts';
import { notifyUser } from '../notifications/public.ts';
import {
  callHasVoicemail,
  findGreeting,
  insertRecording,
  signedRecordingUrl,
  storeRecordingFile,
} from '../recordings/public.ts';
import { contactName, findIncomingCall } from './incoming-calls.repository.ts';

/** The job queue's name for fetching a voicemail from the provider and storing it. */
export const VOICEMAIL_FETCH_TASK = 'voicemail-fetch';

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

/**
 * The provider's report that a voicemail is ready: fetching and storing it is a job (retried with back-off, once
 * per call), so a slow provider or a restart loses no message and the webhook answers at once. A recording shorter
 * than a second, absent or failed, is no message.
 */
export async function voicemailRecorded(
  ctx: AppContext,
  callId: string,
  body: Record<string, string>,
): Promise<void> {
  const recording = ctx.telephony.incoming.parseRecording(body);
  if (!recording || recording.status !== 'completed' || !recording.url) return;
  if (recording.durationSeconds < VOICEMAIL_MIN_SECONDS) return;
  await withActor(ctx.db, { kind: 'system' }, async (trx) => {
    const call = await findIncomingCall(trx, ctx.telephony.name, callId);
    if (!call) return;
    await enqueueJob(
      trx,
      VOICEMAIL_FETCH_TASK,
      {
        callId,
        url: recording.url,
        providerRecordingId: recording.providerRecordingId,
        durationSeconds: recording.durationSeconds,
      },
      { jobKey: `voicemail:${callId}`, maxAttempts: 20 },
    );
  });
}

type VoicemailFetch = { callId: string; url: string; providerRecordingId: string; durationSeconds: number };

/**
 * Fetches a voicemail from the provider, stores it (whole, or not at all) and saves it on its call and contact,
 * once: a second run for the same call stores nothing. Its owner is told (Settings → Notifications, missed calls).
 */
export async function storeVoicemail(ctx: AppContext, job: VoicemailFetch): Promise<string | null> {
  const call = await withActor(ctx.db, { kind: 'system' }, (trx) =>
    findIncomingCall(trx, ctx.telephony.name, job.callId),
  );
  if (!call) return null;
  const userId = call.user_id;
  if (await withActor(ctx.db, { kind: 'user', userId }, (trx) => callHasVoicemail(trx, call.id))) return null;
  const fetched = await ctx.telephony.incoming.fetchRecording(job.url);
  return storeRecordingFile(
    ctx,
    { userId, folder: 'voicemail', extension: fetched.extension, contentType: fetched.contentType },
    fetched.body,
    async (trx, stored) => {
      const id = await insertRecording(trx, {
        userId,
        kind: 'voicemail',
        callId: call.id,
        contactId: call.contact_id,
        storageKey: stored.key,
        contentType: fetched.contentType,
        sizeBytes: stored.size,
        durationSeconds: job.durationSeconds,
        providerRecordingId: job.providerRecordingId,
      });
      if (id) await notifyVoicemail(trx, call, id, job.durationSeconds);
      return id;
    },
  );
}

async function notifyVoicemail(
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

export function voicemailFetchTask(ctx: AppContext): JobTask {
  return async (payload) => {
    await storeVoicemail(ctx, payload as VoicemailFetch);
  };
}
