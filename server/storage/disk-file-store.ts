import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSafeKey, type FileStore } from './file-store.ts';

/** A partial upload older than this is a crashed writer's: any instance may clear it. */
const ABANDONED_PARTIAL_MS = 60 * 60 * 1000;

/**
 * Files on disk under one directory (the data directory's `files` by default). A file is written to `.partial/`,
 * flushed, then renamed to its key: a crash mid-write leaves only a partial file, which no key names and which is
 * cleared an hour later (another instance sharing the directory may be writing its own meanwhile).
 */
export async function createDiskFileStore(root: string): Promise<FileStore> {
  const partialDir = path.join(root, '.partial');
  await mkdir(partialDir, { recursive: true });
  await clearAbandonedPartials(partialDir);
  const fileOf = (key: string) => {
    assertSafeKey(key);
    return path.join(root, ...key.split('/'));
  };

  return {
    async put(key, source) {
      const target = fileOf(key);
      const partial = path.join(partialDir, `${randomBytes(12).toString('hex')}.part`);
      try {
        await pipeline(
          source instanceof Uint8Array ? Readable.from([source]) : source,
          createWriteStream(partial),
        );
        const handle = await open(partial, 'r');
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
        await mkdir(path.dirname(target), { recursive: true });
        await rename(partial, target);
        return { size: (await stat(target)).size };
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    async size(key) {
      try {
        return (await stat(fileOf(key))).size;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async read(key, range) {
      const file = fileOf(key);
      try {
        await stat(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      return createReadStream(file, range ? { start: range.start, end: range.end } : {});
    },
    async remove(key) {
      await rm(fileOf(key), { force: true });
    },
  };
}

async function clearAbandonedPartials(partialDir: string) {
  const now = Date.now();
  for (const name of await readdir(partialDir)) {
    const file = path.join(partialDir, name);
    const info = await stat(file).catch(() => null);
    if (info && now - info.mtimeMs > ABANDONED_PARTIAL_MS) await rm(file, { force: true });
  }
}
