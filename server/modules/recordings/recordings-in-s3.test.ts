import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { VoicemailDrop } from '#domain/recordings/voicemail-drop.ts';
import { readWavInfo } from '#domain/recordings/wav.ts';
import { toneWav, waitFor, openBrowserOf } from '../../test/calls-test-kit.ts';
import { startTestS3, type TestS3 } from '../../test/test-s3.ts';
import {
  allowUnknownLocalTime,
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';
import { deleteDueFiles } from './public.ts';

/*
 * Recordings in an S3-compatible bucket (FILES_S3_*, decision 029), through the real routes, job queue and
 * PostgreSQL against a local S3 server: uploads and fetched voicemails land in the bucket, stream to their owner
 * with byte ranges, and leave the bucket when deleted; the disk is not used for them.
 */

let s3: TestS3;
let ctx: TestContext;
let rep: Session;
afterEach(async () => {
  await ctx.close();
  await s3.close();
});

async function setUp() {
  s3 = await startTestS3();
  ctx = await createTestApp({
    filesS3: s3.settings,
    telephony: { provider: 'simulator', timeScale: 0.02, timeoutMs: 300 },
  });
  rep = await createAccount(ctx, 'user');
  await allowUnknownLocalTime(ctx.app, rep);
  // The rep has the app open: calls coming in ring their browser.
  await openBrowserOf(ctx.app, rep.userId);
}
const send = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: asCookie(rep), ...(payload !== undefined && { payload }) });
const filesOnDisk = () =>
  readdirSync(ctx.filesDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));

describe('recordings in an S3-compatible bucket', () => {
  it('stores a recorded message there, streams it whole and by range, and deletes it from the bucket', async () => {
    await setUp();
    const upload = await ctx.app.inject({
      method: 'POST',
      url: '/api/voicemail/drops?name=Intro',
      headers: { ...asCookie(rep), 'content-type': 'audio/wav' },
      payload: Buffer.from(toneWav(3)),
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const [drop] = upload.json<{ drops: VoicemailDrop[] }>().drops;
    const keys = await s3.keys();
    expect(keys).toEqual([
      expect.stringMatching(new RegExp(`^users/${rep.userId}/drop/[0-9a-f-]{36}\\.wav$`)),
    ]);
    expect(filesOnDisk()).toEqual([]);

    const whole = await send('GET', drop!.recording.url);
    expect(whole.statusCode).toBe(200);
    expect(readWavInfo(whole.rawPayload)?.durationSeconds).toBe(3);
    const part = await ctx.app.inject({
      method: 'GET',
      url: drop!.recording.url,
      headers: { ...asCookie(rep), range: 'bytes=100-199' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${whole.rawPayload.length}`);
    expect(part.rawPayload).toEqual(whole.rawPayload.subarray(100, 200));

    expect((await send('DELETE', `/api/voicemail/drops/${drop!.id}`)).statusCode).toBe(200);
    await deleteDueFiles(ctx.app.ctx);
    expect(await s3.keys()).toEqual([]);
  });

  it('stores a caller’s voicemail there as the job fetches it from the provider', async () => {
    await setUp();
    expect(
      (await send('POST', '/api/caller-ids', { number: '(303) 555-0101', isDefault: true })).statusCode,
    ).toBe(201);
    expect(
      (await send('POST', '/api/calls/simulate-incoming', { from: '7205550177', voicemailSeconds: 2 }))
        .statusCode,
    ).toBe(202);
    // The file is stored whole first, then its row is listed: wait for the row.
    const [row] = await waitFor(
      async () =>
        (await ctx.db.admin.query<{ id: string }>("select id from recordings where kind = 'voicemail'")).rows,
      (rows) => rows.length === 1,
      8000,
    );
    expect(await s3.keys()).toEqual([
      expect.stringMatching(new RegExp(`^users/${rep.userId}/voicemail/.+\\.wav$`)),
    ]);
    const audio = await send('GET', `/api/recordings/${row!.id}/audio`);
    expect(readWavInfo(audio.rawPayload)?.durationSeconds).toBe(2);
    expect(filesOnDisk()).toEqual([]);
  });
});
