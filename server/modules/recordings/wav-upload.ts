import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readWavInfo, type WavInfo } from '#domain/recordings/wav.ts';
import { GREETING_MAX_BYTES } from '#domain/recordings/voicemail.ts';
import { AppError } from '../../errors/app-error.ts';

export const WAV_TYPES = ['audio/wav', 'audio/wave', 'audio/x-wav'];

/** A scope's routes take a WAV file as their raw body (a recording made in the browser), up to 12 MB. */
export function acceptWavBodies(scope: FastifyInstance): void {
  scope.addContentTypeParser(
    WAV_TYPES,
    { parseAs: 'buffer', bodyLimit: GREETING_MAX_BYTES },
    (_r, body, done) => done(null, body),
  );
}

/**
 * The uploaded recording, checked: a WAV body (415 otherwise), a PCM WAV that reads (400), between half a second
 * and `maxSeconds` long (400), in the words the upload's screen uses.
 */
export function uploadedWav(
  request: FastifyRequest,
  limits: { maxSeconds: number },
  messages: { notWav: string; tooLong: string; tooShort: string },
): { body: Buffer; info: WavInfo } {
  if (!WAV_TYPES.includes((request.headers['content-type'] ?? '').split(';')[0]?.trim() ?? ''))
    throw new AppError('UNSUPPORTED_FILE', messages.notWav);
  const body = Buffer.isBuffer(request.body) ? request.body : null;
  const info = body ? readWavInfo(body) : null;
  if (!body || !info) throw new AppError('VALIDATION_FAILED', messages.notWav);
  // A second of slack: a browser's recorder stops a little after the limit it was given.
  if (info.durationSeconds > limits.maxSeconds + 1) throw new AppError('VALIDATION_FAILED', messages.tooLong);
  if (info.durationSeconds < 0.5) throw new AppError('VALIDATION_FAILED', messages.tooShort);
  return { body, info };
}
