import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readWavInfo, type WavInfo } from '#domain/recordings/wav.ts';
import { GREETING_MAX_BYTES } from '#domain/recordings/voicemail.ts';
import type { Db, DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { FileStore } from '../../storage/file-store.ts';
import { insertRecording } from './recordings.repository.ts';
import { storeRecordingFile } from './store-recording.ts';

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

/**
 * Stores a checked upload (a greeting, a voicemail-drop message) as the user's recording of that kind, then lets
 * `then` attach it where it belongs, in the transaction that saves it. `allowed`, asked first in that transaction,
 * may refuse (a limit reached meanwhile): nothing is saved and the file is deleted (null).
 */
export function storeUploadedWav<T>(
  deps: { db: Db; files: FileStore; clock: () => Date },
  upload: { userId: string; kind: 'greeting' | 'drop'; body: Buffer; info: WavInfo },
  then: (trx: DbExecutor, recordingId: string) => Promise<T>,
  allowed: (trx: DbExecutor) => Promise<boolean> = () => Promise.resolve(true),
): Promise<T | null> {
  const { userId, kind, body, info } = upload;
  return storeRecordingFile(
    deps,
    { userId, folder: kind, extension: 'wav', contentType: 'audio/wav' },
    body,
    async (trx, stored) => {
      if (!(await allowed(trx))) return null;
      const id = await insertRecording(trx, {
        userId,
        kind,
        callId: null,
        contactId: null,
        storageKey: stored.key,
        contentType: 'audio/wav',
        sizeBytes: stored.size,
        durationSeconds: Math.round(info.durationSeconds * 100) / 100,
        providerRecordingId: null,
        createdAt: deps.clock(),
      });
      return id ? then(trx, id) : null;
    },
  );
}
