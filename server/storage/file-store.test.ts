import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3, type TestS3 } from '../test/test-s3.ts';
import { createDiskFileStore } from './disk-file-store.ts';
import type { FileStore } from './file-store.ts';
import { createS3FileStore } from './s3-file-store.ts';

/*
 * What every file store promises (decision 029), held against each: on disk, and in an S3-compatible bucket (a
 * local S3 server speaking S3's REST API). A file is there whole or not at all, reads take byte ranges, a missing
 * file is null, deleting twice is fine, and keys are the server's safe paths only.
 */

let s3: TestS3;
let diskDir: string;
const stores: Record<string, () => Promise<FileStore>> = {
  disk: () => createDiskFileStore(diskDir),
  s3: () => createS3FileStore(s3.settings),
};
beforeAll(async () => {
  s3 = await startTestS3();
  diskDir = mkdtempSync(path.join(tmpdir(), 'callcrm-store-'));
});
afterAll(async () => {
  await s3.close();
  rmSync(diskDir, { recursive: true, force: true });
});

const read = async (store: FileStore, key: string, range?: { start: number; end: number }) => {
  const stream = await store.read(key, range);
  return stream ? text(stream) : null;
};

describe.each(Object.keys(stores))('the %s file store', (kind) => {
  it('stores a file from bytes and from a stream, and reads it whole or by range', async () => {
    const store = await stores[kind]!();
    expect(await store.put(`users/u1/${kind}/a.wav`, Buffer.from('0123456789'), 'audio/wav')).toEqual({
      size: 10,
    });
    expect(await store.size(`users/u1/${kind}/a.wav`)).toBe(10);
    expect(await read(store, `users/u1/${kind}/a.wav`)).toBe('0123456789');
    expect(await read(store, `users/u1/${kind}/a.wav`, { start: 3, end: 6 })).toBe('3456');

    // A stream of unknown length, larger than one part of a multipart upload (5 MB).
    const big = Buffer.alloc(6 * 1024 * 1024, 'x');
    big.write('END', big.length - 3);
    const parts = Array.from({ length: 6 }, (_, i) => big.subarray(i * 1024 * 1024, (i + 1) * 1024 * 1024));
    expect(await store.put(`users/u1/${kind}/b.mp3`, Readable.from(parts), 'audio/mpeg')).toEqual({
      size: big.length,
    });
    expect(await store.size(`users/u1/${kind}/b.mp3`)).toBe(big.length);
    expect(await read(store, `users/u1/${kind}/b.mp3`, { start: big.length - 3, end: big.length - 1 })).toBe(
      'END',
    );
  });

  it('answers null for a missing file and deletes one twice without an error', async () => {
    const store = await stores[kind]!();
    expect(await store.size(`users/u2/${kind}/none.wav`)).toBeNull();
    expect(await store.read(`users/u2/${kind}/none.wav`)).toBeNull();
    await store.put(`users/u2/${kind}/gone.wav`, Buffer.from('bye'), 'audio/wav');
    await store.remove(`users/u2/${kind}/gone.wav`);
    await store.remove(`users/u2/${kind}/gone.wav`);
    expect(await store.size(`users/u2/${kind}/gone.wav`)).toBeNull();
  });

  it('leaves nothing under the key when the source fails halfway', async () => {
    const store = await stores[kind]!();
    async function* failing() {
      yield Buffer.alloc(64 * 1024, 'a');
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error('the caller hung up');
    }
    await expect(
      store.put(`users/u3/${kind}/half.wav`, Readable.from(failing()), 'audio/wav'),
    ).rejects.toThrow();
    expect(await store.size(`users/u3/${kind}/half.wav`)).toBeNull();
  });

  it('refuses keys that are not the server’s safe paths', async () => {
    const store = await stores[kind]!();
    for (const key of ['../etc/passwd', '/abs/x.wav', 'users/../../x', 'Users/X.wav', 'users//x.wav', ''])
      await expect(store.put(key, Buffer.from('x'), 'audio/wav')).rejects.toThrow(/Unsafe file key/);
  });
});

it('keeps S3 objects under their keys in the bucket, and only those', async () => {
  const store = await createS3FileStore(s3.settings);
  await store.put('users/u4/greeting/hello.wav', Buffer.from('hi'), 'audio/wav');
  expect(await s3.keys()).toContain('users/u4/greeting/hello.wav');
  await store.remove('users/u4/greeting/hello.wav');
  expect(await s3.keys()).not.toContain('users/u4/greeting/hello.wav');
});
