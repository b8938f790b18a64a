import { PassThrough, Readable } from 'node:stream';
import { assertSafeKey, type FileStore } from './file-store.ts';

/** An S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Backblaze B2, …), as FILES_S3_* configure it. */
export type S3Settings = {
  bucket: string;
  /** The store's URL, for anything other than AWS itself (MinIO: http://minio:9000). */
  endpoint?: string;
  region: string;
  /** Path-style URLs (endpoint/bucket/key), which most S3-compatible stores need; AWS takes either. */
  forcePathStyle: boolean;
  /** Keys; without them the SDK's own chain is used (environment, instance role, …). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
};

const isMissing = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
};

/**
 * Files in an S3-compatible bucket (decision 029), through the AWS SDK: a file is uploaded whole by the SDK's
 * managed upload (one PUT, or a multipart upload for a large stream, which the store shows under its key only once
 * completed, and aborts on a failure), so a half-written file is never under its key; reads take byte ranges as
 * GET's Range. The SDK is loaded only when a bucket is configured.
 */
export async function createS3FileStore(settings: S3Settings): Promise<FileStore> {
  const { S3Client, HeadObjectCommand, GetObjectCommand, DeleteObjectCommand } =
    await import('@aws-sdk/client-s3');
  const { Upload } = await import('@aws-sdk/lib-storage');
  const client = new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint && { endpoint: settings.endpoint }),
    ...(settings.credentials && { credentials: settings.credentials }),
  });
  const Bucket = settings.bucket;
  const checked = (key: string) => {
    assertSafeKey(key);
    return key;
  };

  return {
    async put(key, source, contentType) {
      const Key = checked(key);
      let size = 0;
      let body: Uint8Array | Readable;
      if (source instanceof Uint8Array) {
        size = source.byteLength;
        body = source;
      } else {
        const counted = new PassThrough();
        counted.on('data', (chunk: Buffer) => (size += chunk.length));
        source.on('error', (error) => counted.destroy(error));
        body = source.pipe(counted);
      }
      await new Upload({ client, params: { Bucket, Key, Body: body, ContentType: contentType } }).done();
      return { size };
    },
    async size(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: checked(key) }));
        return head.ContentLength ?? null;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async read(key, range) {
      try {
        const object = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: checked(key),
            ...(range && { Range: `bytes=${range.start}-${range.end}` }),
          }),
        );
        // On Node the SDK's body is the response stream itself.
        if (!(object.Body instanceof Readable)) throw new Error('The store answered without a body');
        return object.Body;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async remove(key) {
      // S3 answers a deletion of a missing key with success, as the store's contract asks.
      await client.send(new DeleteObjectCommand({ Bucket, Key: checked(key) }));
    },
  };
}
