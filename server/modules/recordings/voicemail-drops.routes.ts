import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DROP_MAX_SECONDS,
  DropNameSchema,
  MAX_VOICEMAIL_DROPS,
  NewDropQuerySchema,
  VOICEMAIL_DROP_MESSAGES,
  VoicemailDropListSchema,
} from '#domain/recordings/voicemail-drop.ts';
import { withActor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import {
  countVoicemailDropsLocked,
  deleteVoicemailDrop,
  findVoicemailDrops,
  insertVoicemailDrop,
  renameVoicemailDrop,
  type VoicemailDropRow,
} from './voicemail-drops.repository.ts';
import { recordingUrl } from './recording-urls.ts';
import { acceptWavBodies, storeUploadedWav, uploadedWav } from './wav-upload.ts';

const approved = { config: { access: 'approved' as const } };
const IdParams = z.object({ id: z.uuid('Invalid id') });

export const toVoicemailDrop = (row: VoicemailDropRow) => ({
  id: row.id,
  name: row.name,
  recording: {
    id: row.recording_id,
    durationSeconds: row.duration_seconds,
    url: recordingUrl(row.recording_id),
    createdAt: row.created_at.toISOString(),
  },
});

/**
 * Settings → Phone → Voicemail drop (decision 031): the rep's prerecorded messages, recorded in the browser (a WAV
 * body; the name in the query), renamed, deleted. At most ten; each plays back to its owner like any recording.
 */
export function registerVoicemailDropRoutes(app: FastifyInstance, ctx: AppContext): void {
  void app.register(async (scope) => {
    acceptWavBodies(scope);
    const typed = scope.withTypeProvider<ZodTypeProvider>();
    const asUser = <T>(userId: string, work: Parameters<typeof withActor<T>>[2]) =>
      withActor(ctx.db, { kind: 'user', userId }, work);
    const listOf = async (userId: string) => ({
      drops: (await asUser(userId, (trx) => findVoicemailDrops(trx, userId))).map(toVoicemailDrop),
    });

    typed.get(
      '/api/voicemail/drops',
      { ...approved, schema: { response: { 200: VoicemailDropListSchema } } },
      async (request) => listOf(viewerOf(request).userId),
    );

    typed.post(
      '/api/voicemail/drops',
      {
        ...approved,
        schema: { querystring: NewDropQuerySchema, response: { 201: VoicemailDropListSchema } },
      },
      async (request, reply) => {
        const userId = viewerOf(request).userId;
        const { body, info } = uploadedWav(
          request,
          { maxSeconds: DROP_MAX_SECONDS },
          VOICEMAIL_DROP_MESSAGES,
        );
        // Counted before the file is stored (the common refusal costs no write), and again as it is saved.
        const kept = await asUser(userId, (trx) => findVoicemailDrops(trx, userId));
        if (kept.length >= MAX_VOICEMAIL_DROPS)
          throw new AppError('CONFLICT', VOICEMAIL_DROP_MESSAGES.tooMany);
        const saved = await storeUploadedWav(
          ctx,
          { userId, kind: 'drop', body, info },
          (trx, recordingId) =>
            insertVoicemailDrop(trx, {
              userId,
              recordingId,
              name: request.query.name,
              createdAt: ctx.clock(),
            }),
          // Refused at the limit reached meanwhile: nothing is saved and the file is deleted at once.
          async (trx) => (await countVoicemailDropsLocked(trx, userId)) < MAX_VOICEMAIL_DROPS,
        );
        if (!saved) throw new AppError('CONFLICT', VOICEMAIL_DROP_MESSAGES.tooMany);
        return reply.status(201).send(await listOf(userId));
      },
    );

    typed.patch(
      '/api/voicemail/drops/:id',
      {
        ...approved,
        schema: {
          params: IdParams,
          body: z.object({ name: DropNameSchema }),
          response: { 200: VoicemailDropListSchema },
        },
      },
      async (request) => {
        const userId = viewerOf(request).userId;
        const renamed = await asUser(userId, (trx) =>
          renameVoicemailDrop(trx, userId, request.params.id, request.body.name),
        );
        if (!renamed) throw new AppError('NOT_FOUND', VOICEMAIL_DROP_MESSAGES.notFound);
        return listOf(userId);
      },
    );

    typed.delete(
      '/api/voicemail/drops/:id',
      { ...approved, schema: { params: IdParams, response: { 200: VoicemailDropListSchema } } },
      async (request) => {
        const userId = viewerOf(request).userId;
        const deleted = await asUser(userId, (trx) => deleteVoicemailDrop(trx, userId, request.params.id));
        if (!deleted) throw new AppError('NOT_FOUND', VOICEMAIL_DROP_MESSAGES.notFound);
        return listOf(userId);
      },
    );
  });
}
