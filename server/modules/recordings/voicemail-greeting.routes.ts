import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DEFAULT_VOICEMAIL_GREETING,
  GREETING_MAX_SECONDS,
  SaveGreetingTextSchema,
  VOICEMAIL_MESSAGES,
  VoicemailGreetingSchema,
} from '#domain/recordings/voicemail.ts';
import { withActor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { findGreeting, saveGreetingText, setGreetingRecording } from './recordings.repository.ts';
import { recordingUrl } from './recording-urls.ts';
import { acceptWavBodies, storeUploadedWav, uploadedWav } from './wav-upload.ts';

const approved = { config: { access: 'approved' as const } };

/**
 * Settings → Phone → Voicemail greeting: what a caller hears when nobody answers, written, or recorded in the
 * browser (a WAV file uploaded as the request body; checked, stored whole, then saved).
 */
export function registerVoicemailGreetingRoutes(app: FastifyInstance, ctx: AppContext): void {
  void app.register(async (scope) => {
    acceptWavBodies(scope);
    const typed = scope.withTypeProvider<ZodTypeProvider>();
    const greetingOf = async (userId: string) => {
      const row = await withActor(ctx.db, { kind: 'user', userId }, (trx) => findGreeting(trx, userId));
      return {
        text: row?.greeting_text ?? null,
        defaultText: DEFAULT_VOICEMAIL_GREETING,
        recording: row?.recording_id
          ? {
              id: row.recording_id,
              durationSeconds: Number(row.duration_seconds),
              url: recordingUrl(row.recording_id),
              createdAt: new Date(row.created_at ?? 0).toISOString(),
            }
          : null,
      };
    };

    typed.get(
      '/api/voicemail/greeting',
      { ...approved, schema: { response: { 200: VoicemailGreetingSchema } } },
      async (request) => greetingOf(viewerOf(request).userId),
    );

    typed.put(
      '/api/voicemail/greeting',
      { ...approved, schema: { body: SaveGreetingTextSchema, response: { 200: VoicemailGreetingSchema } } },
      async (request) => {
        const userId = viewerOf(request).userId;
        const text = request.body.text || null;
        await withActor(ctx.db, { kind: 'user', userId }, (trx) =>
          saveGreetingText(trx, userId, text, ctx.clock()),
        );
        return greetingOf(userId);
      },
    );

    typed.put(
      '/api/voicemail/greeting/recording',
      { ...approved, schema: { response: { 200: VoicemailGreetingSchema } } },
      async (request) => {
        const userId = viewerOf(request).userId;
        const { body, info } = uploadedWav(request, { maxSeconds: GREETING_MAX_SECONDS }, VOICEMAIL_MESSAGES);
        await storeUploadedWav(ctx, { userId, kind: 'greeting', body, info }, async (trx, id) => {
          await setGreetingRecording(trx, userId, id, ctx.clock());
          return id;
        });
        return greetingOf(userId);
      },
    );

    typed.delete(
      '/api/voicemail/greeting/recording',
      { ...approved, schema: { response: { 200: VoicemailGreetingSchema } } },
      async (request) => {
        const userId = viewerOf(request).userId;
        await withActor(ctx.db, { kind: 'user', userId }, (trx) =>
          setGreetingRecording(trx, userId, null, ctx.clock()),
        );
        return greetingOf(userId);
      },
    );
  });
}
