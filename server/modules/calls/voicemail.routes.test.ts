import { createHmac } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IncomingCall } from '#domain/calls/incoming-call.ts';
import type { VoicemailGreeting } from '#domain/recordings/voicemail.ts';
import { readWavInfo } from '#domain/recordings/wav.ts';
import { insertContact } from '../../test/contact-factory.ts';
import { toneWav as tone, waitFor, openBrowserOf } from '../../test/calls-test-kit.ts';
import { signSimulatorFields } from '../../telephony/simulator.ts';
import {
  allowUnknownLocalTime,
  asCookie,
  buildSecondInstance,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';
import { deleteDueFiles } from '../recordings/public.ts';

/*
 * Voicemail on the simulator (decision 029), through the real routes, job queue, file store and PostgreSQL: a call
 * nobody answers hears the user's greeting and leaves a message, which is fetched, stored whole, saved once on the
 * call and contact, announced, and streamed (with range requests) to its owner alone.
 */

let ctx: TestContext;
let rep: Session;
afterEach(() => ctx.close());

const secret = createHmac('sha256', 'test-session-secret-that-is-long-enough-1234')
  .update('telephony-simulator')
  .digest('base64url');

async function setUp() {
  // 25 s of ringing pass in half a second; a six-second message in about a fifth of one.
  ctx = await createTestApp({ telephony: { provider: 'simulator', timeScale: 0.02, timeoutMs: 300 } });
  rep = await createAccount(ctx, 'user');
  await allowUnknownLocalTime(ctx.app, rep);
  // The rep has the app open: calls coming in ring their browser.
  await openBrowserOf(ctx.app, rep.userId);
  expect(
    (await send('POST', '/api/caller-ids', { number: '(303) 555-0101', isDefault: true })).statusCode,
  ).toBe(201);
}

const send = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  who: Session | null = rep,
) =>
  ctx.app.inject({
    method,
    url,
    headers: who ? asCookie(who) : {},
    ...(payload !== undefined && { payload }),
  });
const uploadGreeting = (body: Uint8Array | string, contentType = 'audio/wav') =>
  ctx.app.inject({
    method: 'PUT',
    url: '/api/voicemail/greeting/recording',
    headers: { ...asCookie(rep), 'content-type': contentType },
    payload: typeof body === 'string' ? body : Buffer.from(body),
  });
const recordings = async () =>
  (
    await ctx.db.admin.query<{ id: string; kind: string; call_id: string | null; storage_key: string }>(
      'select id, kind, call_id, storage_key from recordings order by created_at',
    )
  ).rows;
const fileOf = (key: string) => path.join(ctx.filesDir, ...key.split('/'));

/** A caller rings and, nobody answering, leaves a message of `seconds`; resolves with the call and its voicemail. */
async function missedWithVoicemail(from = '7205550177', seconds = 6) {
  expect(
    (await send('POST', '/api/calls/simulate-incoming', { from, voicemailSeconds: seconds })).statusCode,
  ).toBe(202);
  const [ringing] = (await send('GET', '/api/calls/incoming')).json<{ calls: IncomingCall[] }>().calls;
  const callId = ringing!.call.id;
  const [voicemail] = await waitFor(
    async () => (await recordings()).filter((r) => r.call_id === callId),
    (rows) => rows.length === 1,
    8000,
  );
  return { callId, voicemail: voicemail! };
}

/** The incoming-status webhook's answer when the ringing is over unanswered, as the provider posts it. */
async function missedAnswer(callId: string) {
  const fields = { CallSid: `SIM${'0'.repeat(32)}`, DialCallStatus: 'no-answer', DialCallDuration: '0' };
  const query = `?callId=${callId}`;
  const answer = await ctx.app.inject({
    method: 'POST',
    url: `/api/telephony/simulator/incoming-status${query}`,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-simulator-signature': signSimulatorFields(secret, fields, query),
    },
    payload: new URLSearchParams(fields).toString(),
  });
  expect(answer.statusCode).toBe(200);
  return answer.json<{
    voicemail?: { greeting: { text?: string; audioUrl?: string }; maxSeconds: number };
  }>();
}

describe('voicemail on the simulator', () => {
  it('a missed caller leaves a message: stored once, announced, on the contact’s page and in the Call History', async () => {
    await setUp();
    const ada = await insertContact(ctx.app, rep, {
      firstName: 'Ada',
      lastName: 'Byron',
      phone: '(720) 555-0177',
    });
    const { callId, voicemail } = await missedWithVoicemail();

    const stored = fileOf(voicemail.storage_key);
    expect(existsSync(stored)).toBe(true);
    expect(voicemail.storage_key).toMatch(new RegExp(`^users/${rep.userId}/voicemail/[0-9a-f-]{36}\\.wav$`));

    const notices = await waitFor(
      async () =>
        (await send('GET', '/api/notifications')).json<{
          notifications: { kind: string; title: string; link: string }[];
        }>().notifications,
      (n) => n.some((x) => x.kind === 'voicemail'),
    );
    expect(notices.map((n) => [n.kind, n.title, n.link])).toEqual([
      ['voicemail', 'Voicemail from Ada Byron (0:06)', `/contacts/${ada.id}`],
      ['missed-call', 'Missed call from Ada Byron', `/contacts/${ada.id}`],
    ]);

    const calling = (await send('GET', `/api/contacts/${ada.id}/calling`)).json<{
      recordings: {
        callId: string;
        kind: string;
        recording: { id: string; durationSeconds: number; url: string };
      }[];
    }>();
    expect(calling.recordings).toEqual([
      {
        callId,
        kind: 'voicemail',
        recording: expect.objectContaining({
          id: voicemail.id,
          durationSeconds: 6,
          url: `/api/recordings/${voicemail.id}/audio`,
        }),
      },
    ]);
    const day = await send(
      'GET',
      `/api/calls/day?from=${encodeURIComponent('2026-11-21T00:00:00Z')}&to=${encodeURIComponent('2026-11-22T00:00:00Z')}`,
    );
    const line = day
      .json<{ lines: { callId: string; voicemail: { id: string } | null }[] }>()
      .lines.find((l) => l.callId === callId);
    expect(line?.voicemail?.id).toBe(voicemail.id);
  });

  it('streams the message to its owner, whole or by byte range, and to nobody else', async () => {
    await setUp();
    const { voicemail } = await missedWithVoicemail('7205550177', 2);
    const url = `/api/recordings/${voicemail.id}/audio`;

    const whole = await send('GET', url);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('audio/wav');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(readWavInfo(whole.rawPayload)?.durationSeconds).toBe(2);

    const part = await ctx.app.inject({
      method: 'GET',
      url,
      headers: { ...asCookie(rep), range: 'bytes=100-199' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${whole.rawPayload.length}`);
    expect(part.rawPayload).toEqual(whole.rawPayload.subarray(100, 200));
    const tail = await ctx.app.inject({
      method: 'GET',
      url,
      headers: { ...asCookie(rep), range: 'bytes=-44' },
    });
    expect(tail.rawPayload).toEqual(whole.rawPayload.subarray(whole.rawPayload.length - 44));
    const beyond = await ctx.app.inject({
      method: 'GET',
      url,
      headers: { ...asCookie(rep), range: `bytes=${whole.rawPayload.length + 10}-` },
    });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${whole.rawPayload.length}`);

    const stranger = await createAccount(ctx, 'user');
    expect((await send('GET', url, undefined, stranger)).statusCode).toBe(404);
    expect((await send('GET', url, undefined, null)).statusCode).toBe(401);

    // Another server instance on the same database and file store streams it too.
    const second = await buildSecondInstance(ctx);
    try {
      const there = await second.inject({ method: 'GET', url, headers: asCookie(rep) });
      expect(there.rawPayload).toEqual(whole.rawPayload);
    } finally {
      await second.close();
    }
  });

  it('saves one message however often the provider reports it, and none for a caller who hung up at the tone', async () => {
    await setUp();
    const { callId, voicemail } = await missedWithVoicemail();
    const fields = {
      CallSid: `SIM${'1'.repeat(32)}`,
      RecordingSid: `RESIM${'2'.repeat(32)}`,
      RecordingUrl: `simulator:recordings/RESIM${'2'.repeat(32)}?seconds=4`,
      RecordingDuration: '4',
      RecordingStatus: 'completed',
    };
    const query = `?callId=${callId}`;
    const reports = await Promise.all(
      Array.from({ length: 20 }, () =>
        ctx.app.inject({
          method: 'POST',
          url: `/api/telephony/simulator/voicemail-recording${query}`,
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'x-simulator-signature': signSimulatorFields(secret, fields, query),
          },
          payload: new URLSearchParams(fields).toString(),
        }),
      ),
    );
    expect(reports.map((r) => r.statusCode)).toEqual(Array(20).fill(204));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await recordings()).map((r) => r.id)).toEqual([voicemail.id]);

    // A forged report is refused and changes nothing.
    const forged = await ctx.app.inject({
      method: 'POST',
      url: `/api/telephony/simulator/voicemail-recording${query}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-simulator-signature': 'forged' },
      payload: new URLSearchParams(fields).toString(),
    });
    expect(forged.statusCode).toBe(403);

    // A caller who says nothing leaves nothing.
    await send('POST', '/api/calls/simulate-incoming', { from: '7205550188', voicemailSeconds: 0 });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(await recordings()).toHaveLength(1);
  });

  it('deleting the contact deletes their messages and the files', async () => {
    await setUp();
    const ada = await insertContact(ctx.app, rep, { firstName: 'Ada', phone: '(720) 555-0177' });
    const { callId, voicemail } = await missedWithVoicemail();
    expect((await send('DELETE', `/api/contacts/${ada.id}`)).statusCode).toBe(204);
    expect(await recordings()).toEqual([]);
    // The call stays in the logs, without the message.
    expect((await ctx.db.admin.query('select 1 from calls where id = $1', [callId])).rowCount).toBe(1);
    await waitFor(
      () => Promise.resolve(existsSync(fileOf(voicemail.storage_key))),
      (exists) => !exists,
    );
  });
});

describe('the voicemail greeting', () => {
  it('callers hear the default, then the written greeting, then the recorded one through a signed URL', async () => {
    await setUp();
    await send('POST', '/api/calls/simulate-incoming', { from: '7205550177', voicemailSeconds: 0 });
    const [ringing] = (await send('GET', '/api/calls/incoming')).json<{ calls: IncomingCall[] }>().calls;
    const callId = ringing!.call.id;
    expect((await missedAnswer(callId)).voicemail).toEqual({
      callId,
      greeting: {
        text: 'Sorry, nobody can take your call right now. Please leave a message after the tone.',
      },
      maxSeconds: 120,
    });

    const written = await send('PUT', '/api/voicemail/greeting', {
      text: '  You reached Sam at Acme. Leave a message.  ',
    });
    expect(written.json<VoicemailGreeting>().text).toBe('You reached Sam at Acme. Leave a message.');
    expect((await missedAnswer(callId)).voicemail?.greeting).toEqual({
      text: 'You reached Sam at Acme. Leave a message.',
    });

    const recorded = await uploadGreeting(tone(3));
    expect(recorded.statusCode, recorded.body).toBe(200);
    const greeting = recorded.json<VoicemailGreeting>();
    expect(greeting.recording).toMatchObject({ durationSeconds: 3 });
    const audioUrl = (await missedAnswer(callId)).voicemail?.greeting.audioUrl ?? '';
    expect(audioUrl).toMatch(
      new RegExp(`^http://localhost:3000/api/recordings/${greeting.recording!.id}/signed-audio\\?`),
    );

    // The provider fetches it without a session; a tampered or expired URL is refused.
    const signedPath = audioUrl.replace('http://localhost:3000', '');
    const fetched = await ctx.app.inject({ method: 'GET', url: signedPath });
    expect(fetched.statusCode).toBe(200);
    expect(readWavInfo(fetched.rawPayload)?.durationSeconds).toBe(3);
    expect((await ctx.app.inject({ method: 'GET', url: `${signedPath}x` })).statusCode).toBe(404);
    ctx.clock.advance(16 * 60 * 1000);
    expect((await ctx.app.inject({ method: 'GET', url: signedPath })).statusCode).toBe(404);
  });

  it('a new recording replaces the old, whose file is deleted; removing it goes back to the written greeting', async () => {
    await setUp();
    const first = (await uploadGreeting(tone(1))).json<VoicemailGreeting>().recording!;
    const [firstRow] = await recordings();
    const second = (await uploadGreeting(tone(2))).json<VoicemailGreeting>().recording!;
    expect(second.id).not.toBe(first.id);
    expect((await recordings()).map((r) => r.id)).toEqual([second.id]);
    await waitFor(
      () => Promise.resolve(existsSync(fileOf(firstRow!.storage_key))),
      (exists) => !exists,
    );

    const removed = await send('DELETE', '/api/voicemail/greeting/recording');
    expect(removed.json<VoicemailGreeting>().recording).toBeNull();
    expect(await recordings()).toEqual([]);
  });

  it.each([
    [
      'a file that is not a recording',
      'not audio at all',
      'audio/wav',
      400,
      'The greeting must be a WAV recording',
    ],
    ['a recording of another type', 'ID3 mp3 bytes', 'audio/mpeg', 415, undefined],
    ['an empty recording', tone(0), 'audio/wav', 400, 'The recording is empty'],
    ['a greeting over two minutes', tone(125), 'audio/wav', 400, 'A greeting can be at most 120 seconds'],
  ])('refuses %s, storing nothing', async (_name, body, type, status, message) => {
    await setUp();
    const answer = await uploadGreeting(body, type);
    expect(answer.statusCode).toBe(status);
    if (message) expect(answer.json().message).toBe(message);
    expect(await recordings()).toEqual([]);
    expect(readdirSync(ctx.filesDir).filter((f) => f !== '.partial')).toEqual([]);
  });

  it('a store that fails halfway leaves no recording and no file under a key, and the held file is deleted later', async () => {
    await setUp();
    const { storeRecordingFile } = await import('../recordings/public.ts');
    const { Readable } = await import('node:stream');
    const broken = new Readable({
      read() {
        this.push(Buffer.alloc(1000));
        this.destroy(new Error('connection cut'));
      },
    });
    await expect(
      storeRecordingFile(
        ctx.app.ctx,
        { userId: rep.userId, folder: 'greeting', extension: 'wav', contentType: 'audio/wav' },
        broken,
        () => Promise.resolve('saved'),
      ),
    ).rejects.toThrow('connection cut');
    expect(await recordings()).toEqual([]);
    expect(readdirSync(path.join(ctx.filesDir, '.partial'))).toEqual([]);
    const held = (await ctx.db.admin.query<{ storage_key: string }>('select storage_key from file_deletions'))
      .rows;
    expect(held).toHaveLength(1);
    expect(await deleteDueFiles(ctx.app.ctx)).toBe(0);
  });
});
