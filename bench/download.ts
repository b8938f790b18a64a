import http from 'node:http';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';

/**
 * Downloads a CSV as a browser does: compressed (brotli or gzip, as the server chooses), decompressed natively
 * as it arrives, lines and bytes counted. Node's own http and zlib streams, not fetch: in the benchmark's process
 * fetch's decompression took 3.5 to 11 s over a download curl finishes in 2.8 s, measuring the client, not the server.
 */
export function downloadCsv(
  url: string,
  cookie: string,
): Promise<{ lines: number; bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { cookie, 'accept-encoding': 'br, gzip' } }, (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          return reject(new Error(`${url}: ${response.statusCode}`));
        }
        const encoding = response.headers['content-encoding'] ?? 'none';
        const body: Readable =
          encoding === 'br'
            ? response.pipe(zlib.createBrotliDecompress())
            : encoding === 'gzip'
              ? response.pipe(zlib.createGunzip())
              : response;
        let lines = 0;
        let bytes = 0;
        body.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
        });
        body.on('end', () => resolve({ lines, bytes, encoding }));
        body.on('error', reject);
      })
      .on('error', reject);
  });
}
