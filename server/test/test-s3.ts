import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../storage/s3-file-store.ts';

export type TestS3 = {
  settings: S3Settings;
  /** The keys the bucket holds now, as a listing of the store shows them. */
  keys: () => Promise<string[]>;
  close: () => Promise<void>;
};

const BUCKET = 'callcrm-recordings';
const KEY = 'S3RVER';

/**
 * A local S3-compatible server (s3rver: S3's REST API, signature V4, on a temporary directory) with one bucket, for
 * the tests of the S3 file store: what an operator's MinIO or AWS bucket would answer.
 */
export async function startTestS3(): Promise<TestS3> {
  const directory = mkdtempSync(path.join(tmpdir(), 'callcrm-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const { port } = (await server.run()) as { port: number };
  const settings: S3Settings = {
    bucket: BUCKET,
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: KEY, secretAccessKey: KEY },
  };
  return {
    settings,
    async keys() {
      const { S3Client, ListObjectsV2Command } = await import('@aws-sdk/client-s3');
      const client = new S3Client(settings);
      const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
      client.destroy();
      return (listed.Contents ?? []).map((o) => o.Key ?? '').sort();
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
