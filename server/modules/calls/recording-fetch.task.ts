import { VOICEMAIL_MIN_SECONDS } from '#domain/recordings/voicemail.ts';
import { withActor } from '../../db/database.ts';
import { enqueueJob } from '../../jobs/enqueue-job.ts';
import type { JobTask } from '../../jobs/job-runner.ts';
import type { AppContext } from '../../app-context.ts';
import { callHasRecording, insertRecording, storeRecordingFile } from '../recordings/public.ts';
import { findCallForRecording } from './calls.repository.ts';
import { notifyVoicemail } from './voicemail.service.ts';

/** The job queue's name for fetching a recording (a voicemail, a recorded call) from the provider and storing it. */
export const RECORDING_FETCH_TASK = 'recording-fetch';

type RecordingKind = 'voicemail' | 'call';
type RecordingFetch = {
  kind: RecordingKind;
  callId: string;
  url: string;
  providerRecordingId: string;
  durationSeconds: number;
};

/**
 * The provider's report that a recording is ready (decisions 029, 030): fetching and storing it is a job (retried
 * with back-off, once per call and kind), so a slow provider or a restart loses nothing and the webhook answers at
 * once. A recording shorter than a second, absent or failed, is nothing to keep; one for a call that was not
 * recorded (a voicemail is always) is refused.
 */
export async function recordingReady(
  ctx: AppContext,
  kind: RecordingKind,
  callId: string,
  body: Record<string, string>,
): Promise<void> {
  const recording = ctx.telephony.incoming.parseRecording(body);
  if (!recording || recording.status !== 'completed' || !recording.url) return;
  if (recording.durationSeconds < VOICEMAIL_MIN_SECONDS) return;
  await withActor(ctx.db, { kind: 'system' }, async (trx) => {
    const call = await findCallForRecording(trx, ctx.telephony.name, callId);
    if (!call || (kind === 'voicemail' ? call.direction !== 'inbound' : !call.recorded)) return;
    const job: RecordingFetch = {
      kind,
      callId,
      url: recording.url,
      providerRecordingId: recording.providerRecordingId,
      durationSeconds: recording.durationSeconds,
    };
    await enqueueJob(trx, RECORDING_FETCH_TASK, job, { jobKey: `${kind}:${callId}`, maxAttempts: 20 });
  });
}

/**
 * Fetches a recording from the provider, stores it (whole, or not at all) and saves it on its call and contact,
 * once: a second run for the same call and kind stores nothing. A voicemail is announced to its owner. Then the
 * provider's copy is deleted (a failure fails the job, whose next run only retries the deletion).
 */
export async function storeCallRecording(ctx: AppContext, job: RecordingFetch): Promise<string | null> {
  const stored = await storeOnce(ctx, job);
  await ctx.telephony.incoming.deleteRecording(job.providerRecordingId);
  return stored;
}

async function storeOnce(ctx: AppContext, job: RecordingFetch): Promise<string | null> {
  const call = await withActor(ctx.db, { kind: 'system' }, (trx) =>
    findCallForRecording(trx, ctx.telephony.name, job.callId),
  );
  if (!call) return null;
  const userId = call.user_id;
  if (await withActor(ctx.db, { kind: 'user', userId }, (trx) => callHasRecording(trx, call.id, job.kind)))
    return null;
  const fetched = await ctx.telephony.incoming.fetchRecording(job.url);
  return storeRecordingFile(
    ctx,
    { userId, folder: job.kind, extension: fetched.extension, contentType: fetched.contentType },
    fetched.body,
    async (trx, stored) => {
      const id = await insertRecording(trx, {
        userId,
        kind: job.kind,
        callId: call.id,
        contactId: call.contact_id,
        storageKey: stored.key,
        contentType: fetched.contentType,
        sizeBytes: stored.size,
        durationSeconds: job.durationSeconds,
        providerRecordingId: job.providerRecordingId,
        createdAt: ctx.clock(),
      });
      if (id && job.kind === 'voicemail') await notifyVoicemail(trx, call, id, job.durationSeconds);
      return id;
    },
  );
}

export function recordingFetchTask(ctx: AppContext): JobTask {
  return async (payload) => {
    await storeCallRecording(ctx, payload as RecordingFetch);
  };
}
