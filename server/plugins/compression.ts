import type { FastifyInstance } from 'fastify';
import fastifyCompress from '@fastify/compress';

/** JSON answers of at least this many bytes are compressed; smaller ones cost more to compress than they save. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Answers of a compressible type (JSON, CSV, vCard: text and JSON) of at least COMPRESS_THRESHOLD_BYTES go out
 * brotli- or gzip-compressed when the browser accepts it (decision 012); a streamed download is compressed as
 * it streams. XLSX is already a zip and is left alone; the event stream is never buffered by a compressor.
 * Built assets are not compressed here: they are served precompressed (web-app.ts). Request bodies are never
 * decompressed: a compressed upload is refused like any other body the route does not understand.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    globalCompression: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD_BYTES,
  });
}
