import type { Readable } from 'node:stream';

/** A byte range of a stored file, both ends included (HTTP's Range). */
export type ByteRange = { start: number; end: number };

/**
 * Where recordings and greetings live (decision 029): a file is written whole or not at all (a half-written file is
 * never under its key), read whole or by byte range, and deleted. Keys are paths of safe segments
 * (`users/<id>/voicemail/<id>.wav`), chosen by the server, never by a client.
 */
export type FileStore = {
  /** Stores `source` under `key` (replacing nothing: keys are new ids); resolves with its size once it is whole. */
  put: (key: string, source: Readable | Uint8Array, contentType: string) => Promise<{ size: number }>;
  /** The file's size, or null when there is none. */
  size: (key: string) => Promise<number | null>;
  /** Reads the file, or the range of it; null when there is none. */
  read: (key: string, range?: ByteRange) => Promise<Readable | null>;
  /** Deletes the file; deleting a file that is not there is not an error. */
  remove: (key: string) => Promise<void>;
};

const SAFE_KEY = /^[a-z0-9][a-z0-9-]*(\/[a-z0-9][a-z0-9.-]*)*$/;

/** A key is lower-case segments of letters, digits, dots and dashes: no `..`, no absolute path, no surprises. */
export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.includes('..') || key.length > 300)
    throw new Error(`Unsafe file key: ${key}`);
}
