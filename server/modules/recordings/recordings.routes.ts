import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import parseRange from 'range-parser';
import { z } from 'zod';
import { VOICEMAIL_MESSAGES } from '#domain/recordings/voicemail.ts';
import { withActor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { findRecording, type RecordingRow } from './recordings.repository.ts';
import { verifySignedRecordingUrl } from './recording-urls.ts';

const IdParams = z.object({ id: z.uuid('Invalid id') });
const SignedQuery = z.object({
  expires: z.coerce.number().int().positive(),
  signature: z.string().min(1).max(100),
});

/**
 * Recordings stream to their owner (decision 029): with the session (the browser's <audio>), or through a signed
 * URL that expires (what a telephony provider fetches a greeting from). Range requests answer 206 with just those
 * bytes, so the browser seeks without downloading what it skips; another user's recording, or one without a valid
 * signature, is 404 — never told apart from one that does not exist.
 */
export function registerRecordingRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    '/api/recordings/:id/audio',
    { config: { access: 'approved' }, schema: { params: IdParams } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      const recording = await withActor(ctx.db, { kind: 'user', userId }, (trx) =>
        findRecording(trx, request.params.id),
      );
      return streamRecording(ctx, request, reply, recording);
    },
  );
  typed.get(
    '/api/recordings/:id/signed-audio',
    { config: { access: 'public' }, schema: { params: IdParams, querystring: SignedQuery } },
    async (request, reply) => {
      const { expires, signature } = request.query;
      if (!verifySignedRecordingUrl(ctx.urlSigningKey, request.params.id, expires, signature, ctx.clock()))
        throw new AppError('NOT_FOUND', VOICEMAIL_MESSAGES.recordingNotFound);
      const recording = await withActor(ctx.db, { kind: 'system' }, (trx) =>
        findRecording(trx, request.params.id),
      );
      return streamRecording(ctx, request, reply, recording);
    },
  );
}

async function streamRecording(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  recording: RecordingRow | undefined,
) {
  if (!recording) throw new AppError('NOT_FOUND', VOICEMAIL_MESSAGES.recordingNotFound);
  const size = recording.size_bytes;
  reply
    .header('accept-ranges', 'bytes')
    .header('content-type', recording.content_type)
    .header('cache-control', 'private, no-store');
  const asked = request.headers.range ? parseRange(size, request.headers.range, { combine: true }) : null;
  if (asked === -1 || (Array.isArray(asked) && asked.type !== 'bytes'))
    return reply.status(416).header('content-range', `bytes */${size}`).send();
  // A malformed Range header (-2) is ignored, as HTTP says: the whole file.
  const range = Array.isArray(asked) ? asked[0] : undefined;
  const stream = await ctx.files.read(recording.storage_key, range);
  if (!stream) throw new AppError('NOT_FOUND', VOICEMAIL_MESSAGES.recordingNotFound);
  if (range)
    reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
      .header('content-length', range.end - range.start + 1);
  else reply.header('content-length', size);
  return reply.send(stream);
}
