import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Call } from '#domain/calls/call.schema.ts';
import { readWavInfo } from '#domain/recordings/wav.ts';
import { insertContact } from '../../test/contact-factory.ts';
import { placeCallAs, waitFor } from '../../test/calls-test-kit.ts';
import {
  allowUnknownLocalTime,
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';
import { deleteExpired } from '../recordings/public.ts';

/*
 * Call recording on the simulator (decision 030), through the real routes, job queue, file store and PostgreSQL:
 * off by default; when on, a call is recorded, the called person first hears the disclosure where the law asks
 * for it (all-party-consent states), and the recording is stored, played to its owner and deleted after the
 * retention.
 */

let ctx: TestContext;
let rep: Session;
afterEach(() => ctx.close());

async function setUp() {
  ctx = await createTestApp();
  // 10 am in California, noon in Texas: within calling hours.
  ctx.clock.set(new Date('2026-11-21T18:00:00Z'));
  rep = await createAccount(ctx, 'user');
  await allowUnknownLocalTime(ctx.app, rep);
}

const send = (method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: asCookie(rep), ...(payload !== undefined && { payload }) });
const recordCalls = (retentionDays = 90) =>
  send('PUT', '/api/recording-settings', { recordCalls: true, retentionDays });
const recordings = async () =>
  (
    await ctx.db.admin.query<{
      id: string;
      kind: string;
      call_id: string;
      storage_key: string;
      duration: string;
    }>(
      'select id, kind, call_id, storage_key, duration_seconds as duration from recordings order by created_at',
    )
  ).rows;

/** Calls a contact (whose number ends in 6: a person answers and talks 30 s) and waits for the call to end. */
async function callContact(phone: string) {
  const contact = await insertContact(ctx.app, rep, { firstName: 'Pat', lastName: 'Lee', phone });
  const placed = await placeCallAs(ctx.app, rep, { contactId: contact.id });
  expect(placed.statusCode, placed.body).toBe(201);
  const call = placed.json<{ call: Call }>().call;
  await waitFor(
    async () => (await send('GET', `/api/calls/${call.id}`)).json<{ call: Call }>().call.status,
    (status) => status === 'completed',
  );
  return { call, contactId: contact.id };
}

describe('call recording', () => {
  it('is off by default: a call is not recorded', async () => {
    await setUp();
    expect((await send('GET', '/api/recording-settings')).json()).toMatchObject({
      settings: { recordCalls: false, retentionDays: 90 },
    });
    const { call } = await callContact('(415) 555-0176');
    expect(call).toMatchObject({ recorded: false, recordingDisclosure: null });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await recordings()).toEqual([]);
  });

  it('records a call: a California contact hears the disclosure first, a Texas contact does not', async () => {
    await setUp();
    expect((await recordCalls()).statusCode).toBe(200);

    const california = await callContact('(415) 555-0176');
    expect(california.call).toMatchObject({ recorded: true, recordingDisclosure: 'This call is recorded.' });
    const texas = await callContact('(512) 555-0176');
    expect(texas.call).toMatchObject({ recorded: true, recordingDisclosure: null });

    const stored = await waitFor(recordings, (rows) => rows.length === 2);
    expect(stored.map((r) => [r.kind, r.call_id])).toEqual(
      expect.arrayContaining([
        ['call', california.call.id],
        ['call', texas.call.id],
      ]),
    );
    const calling = (await send('GET', `/api/contacts/${california.contactId}/calling`)).json<{
      recordings: { callId: string; kind: string; recording: { url: string; durationSeconds: number } }[];
    }>();
    expect(calling.recordings).toEqual([
      expect.objectContaining({ callId: california.call.id, kind: 'call' }),
    ]);
    const audio = await send('GET', calling.recordings[0]!.recording.url);
    expect(audio.statusCode).toBe(200);
    expect(readWavInfo(audio.rawPayload)?.durationSeconds).toBe(
      calling.recordings[0]!.recording.durationSeconds,
    );

    // The Call History plays it too.
    const day = await send('GET', '/api/calls/day?from=2026-11-21T00:00:00Z&to=2026-11-22T00:00:00Z');
    const line = day
      .json<{ lines: { callId: string; recording: { id: string } | null }[] }>()
      .lines.find((l) => l.callId === texas.call.id);
    expect(line?.recording).not.toBeNull();
  });

  it('deletes recordings past the retention, and their files', async () => {
    await setUp();
    await recordCalls(1);
    await callContact('(512) 555-0176');
    const [recording] = await waitFor(recordings, (rows) => rows.length === 1);
    const file = path.join(ctx.filesDir, ...recording!.storage_key.split('/'));
    expect(existsSync(file)).toBe(true);

    expect(await deleteExpired(ctx.app.ctx)).toBe(0);
    ctx.clock.advance(25 * 3600_000);
    expect(await deleteExpired(ctx.app.ctx)).toBe(1);
    expect(await recordings()).toEqual([]);
    await waitFor(
      () => Promise.resolve(existsSync(file)),
      (exists) => !exists,
    );
  });

  it('refuses a retention outside 1 to 3650 days, and a recording report for a call that was not recorded', async () => {
    await setUp();
    for (const retentionDays of [0, 3651, 1.5]) {
      const refused = await send('PUT', '/api/recording-settings', { recordCalls: true, retentionDays });
      expect(refused.statusCode).toBe(400);
    }
    const { call } = await callContact('(512) 555-0176');
    const { createHmac } = await import('node:crypto');
    const { signSimulatorFields } = await import('../../telephony/simulator.ts');
    const secret = createHmac('sha256', 'test-session-secret-that-is-long-enough-1234')
      .update('telephony-simulator')
      .digest('base64url');
    const fields = {
      CallSid: `SIM${'3'.repeat(32)}`,
      RecordingSid: `RESIM${'4'.repeat(32)}`,
      RecordingUrl: `simulator:recordings/RESIM${'4'.repeat(32)}?seconds=5`,
      RecordingDuration: '5',
      RecordingStatus: 'completed',
    };
    const query = `?callId=${call.id}`;
    const report = await ctx.app.inject({
      method: 'POST',
      url: `/api/telephony/simulator/call-recording${query}`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-simulator-signature': signSimulatorFields(secret, fields, query),
      },
      payload: new URLSearchParams(fields).toString(),
    });
    expect(report.statusCode).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await recordings()).toEqual([]);
  });

  it('a recording is another user’s to no one', async () => {
    await setUp();
    await recordCalls();
    await callContact('(512) 555-0176');
    const [recording] = await waitFor(recordings, (rows) => rows.length === 1);
    const stranger = await createAccount(ctx, 'user');
    const asStranger = await ctx.app.inject({
      method: 'GET',
      url: `/api/recordings/${recording!.id}/audio`,
      headers: asCookie(stranger),
    });
    expect(asStranger.statusCode).toBe(404);
  });
});
