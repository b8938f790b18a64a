import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newRequestId } from '#domain/calls/call-guard.ts';
import { agentIdentity } from '../../telephony/telephony-provider.ts';
import { FAKE_ACCOUNT_SID, type FakeTwilio } from '../../test/fake-twilio.ts';
import { TEST_PUBLIC_URL } from '../../test/test-constants.ts';
import {
  allowUnknownLocalTime,
  asCookie,
  createAccount,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';
import { insertContact } from '../../test/contact-factory.ts';
import { openBrowserOf, waitFor } from '../../test/calls-test-kit.ts';
import { startTwilioRep, TWILIO_CALLER_ID, twilioWebhook } from '../../test/twilio-test-app.ts';
import { storeCallRecording } from './recording-fetch.task.ts';

/*
 * Calls coming in on Twilio (decision 028), against the signed webhooks Twilio posts: the number's "A call comes in"
 * webhook answered with TwiML that rings the user's browser phones, and the ringing's progress and end.
 */

let fake: FakeTwilio;
let ctx: TestContext;
let rep: Session;
beforeEach(async () => {
  ({ fake, ctx, rep } = await startTwilioRep());
  // 11 am in Denver: within calling hours for the calls the reps place first.
  ctx.clock.set(new Date('2026-11-21T18:00:00Z'));
});
afterEach(async () => {
  await ctx.close();
  await fake.close();
});

const CALLER = '+17205550177';
let sids = 0;
const comesIn = (from = CALLER, sid = `CA${String(++sids).padStart(32, '0')}`) =>
  twilioWebhook(ctx.app, '/api/telephony/twilio/incoming', {
    AccountSid: FAKE_ACCOUNT_SID,
    CallSid: sid,
    From: from,
    To: TWILIO_CALLER_ID,
    CallStatus: 'ringing',
    Direction: 'inbound',
  });
const progress = (callId: string, fields: Record<string, string>) =>
  twilioWebhook(ctx.app, `/api/telephony/twilio/incoming-status?callId=${callId}`, {
    AccountSid: FAKE_ACCOUNT_SID,
    CallSid: 'CA'.padEnd(34, '9'),
    ...fields,
  });
const rows = async () =>
  (
    await ctx.db.admin.query<{
      id: string;
      user_id: string;
      status: string;
      duration_seconds: number | null;
      contact_id: string | null;
    }>(`select id, user_id, status, duration_seconds, contact_id from calls where direction = 'inbound'`)
  ).rows;
const callFrom = async (who: Session, to: string) => {
  const placed = await ctx.app.inject({
    method: 'POST',
    url: '/api/calls',
    headers: asCookie(who),
    payload: { requestId: newRequestId(), to },
  });
  expect(placed.statusCode, placed.body).toBe(201);
};

describe('incoming calls on Twilio, against its signed webhooks', () => {
  it('rings the browser phones of the user who last called the caller from that number, with TwiML', async () => {
    const other = await createAccount(ctx, 'user');
    await allowUnknownLocalTime(ctx.app, other);
    await openBrowserOf(ctx.app, other.userId);
    const ada = await insertContact(ctx.app, other, { firstName: 'Ada', phone: '(720) 555-0177' });
    // Both reps call from the instance's number; the caller calls back the one who called them.
    await callFrom(other, CALLER);
    await callFrom(rep, '+17205550123');

    const answer = await comesIn();
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/xml/);
    const [call] = await rows();
    expect(call).toMatchObject({ user_id: other.userId, status: 'ringing', contact_id: ada.id });
    const statusUrl = `${TEST_PUBLIC_URL}/api/telephony/twilio/incoming-status?callId=${call!.id}`.replace(
      /&/g,
      '&amp;',
    );
    expect(answer.body).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response>' +
        `<Dial timeout="25" answerOnBridge="true" action="${statusUrl}" method="POST">` +
        `<Client statusCallback="${statusUrl}" statusCallbackEvent="answered completed" statusCallbackMethod="POST">` +
        `<Identity>${agentIdentity(other.userId)}</Identity>` +
        `<Parameter name="callId" value="${call!.id}"/><Parameter name="direction" value="inbound"/>` +
        '</Client></Dial></Response>',
    );
    // Twilio retrying the same webhook finds the same call.
    const again = await comesIn(CALLER, `CA${String(sids).padStart(32, '0')}`);
    expect(again.body).toContain('<Dial');
    expect(await rows()).toHaveLength(1);
  });

  it('records a call coming in when recording is on, a California caller hearing the disclosure before the ringing', async () => {
    const on = await ctx.app.inject({
      method: 'PUT',
      url: '/api/recording-settings',
      headers: asCookie(rep),
      payload: { recordCalls: true, retentionDays: 90 },
    });
    expect(on.statusCode).toBe(200);
    for (const [caller, disclosure] of [
      ['+14155550177', '<Say>This call is recorded.</Say>'],
      ['+17205550188', ''],
    ] as const) {
      await callFrom(rep, caller);
      const answer = await comesIn(caller);
      const call = (await rows()).find((r) => r.status === 'ringing')!;
      const recordingUrl = `${TEST_PUBLIC_URL}/api/telephony/twilio/call-recording?callId=${call.id}`;
      expect(answer.body).toContain(
        `<Response>${disclosure}<Dial timeout="25" answerOnBridge="true" action="`,
      );
      expect(answer.body).toContain(
        `record="record-from-answer-dual" recordingStatusCallback="${recordingUrl}" ` +
          'recordingStatusCallbackMethod="POST" recordingStatusCallbackEvent="completed">',
      );
      await progress(call.id, { DialCallStatus: 'completed', DialCallDuration: '12' });
    }
  });

  it('tells a caller nobody here called that the number is not in service, and refuses a forged webhook', async () => {
    const answer = await comesIn('+12125550199');
    expect(answer.body).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Say>The number you have called is not in service.</Say><Hangup/></Response>',
    );
    const forged = await ctx.app.inject({
      method: 'POST',
      url: '/api/telephony/twilio/incoming',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'forged' },
      payload: new URLSearchParams({ CallSid: 'CA1', From: CALLER, To: TWILIO_CALLER_ID }).toString(),
    });
    expect(forged.statusCode).toBe(403);
    // A signed call whose number carries a NUL byte is refused as bad input (the app's NUL guard), nothing written.
    expect((await comesIn('+1720555\u00000177')).statusCode).toBe(400);
    expect(await rows()).toEqual([]);
  });

  it('an answered call moves on its leg’s events and ends with the Dial’s duration', async () => {
    await callFrom(rep, CALLER);
    await comesIn();
    const [call] = await rows();
    expect((await progress(call!.id, { CallStatus: 'in-progress' })).statusCode).toBe(200);
    expect((await rows())[0]!.status).toBe('in-progress');
    // Answering is the browser phone's own on Twilio.
    const answer = await ctx.app.inject({
      method: 'POST',
      url: `/api/calls/${call!.id}/answer`,
      headers: asCookie(rep),
    });
    expect(answer.statusCode).toBe(409);
    expect(answer.json().message).toBe('On Twilio the browser phone answers the call itself');
    const decline = await ctx.app.inject({
      method: 'POST',
      url: `/api/calls/${call!.id}/decline`,
      headers: asCookie(rep),
    });
    expect(decline.statusCode).toBe(409);
    expect(decline.json().message).toBe('On Twilio the browser phone declines the call itself');

    const ended = await progress(call!.id, { DialCallStatus: 'completed', DialCallDuration: '42' });
    expect(ended.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>');
    expect(await rows()).toEqual([expect.objectContaining({ status: 'completed', duration_seconds: 42 })]);
  });

  it('a call that rang out is missed once: one notification, and the caller may leave a voicemail', async () => {
    await callFrom(rep, CALLER);
    await comesIn();
    const [call] = await rows();
    // One device's leg ringing out is not the call missed.
    await progress(call!.id, { CallStatus: 'no-answer' });
    expect((await rows())[0]!.status).toBe('ringing');
    const hook = (name: string) =>
      `${TEST_PUBLIC_URL}/api/telephony/twilio/${name}?callId=${call!.id}`.replace(/&/g, '&amp;');
    for (let i = 0; i < 2; i++) {
      const missed = await progress(call!.id, { DialCallStatus: 'no-answer', DialCallDuration: '0' });
      expect(missed.body).toBe(
        '<?xml version="1.0" encoding="UTF-8"?><Response>' +
          '<Say>Sorry, nobody can take your call right now. Please leave a message after the tone.</Say>' +
          `<Record maxLength="120" playBeep="true" timeout="5" action="${hook('voicemail')}" method="POST" ` +
          `recordingStatusCallback="${hook('voicemail-recording')}" recordingStatusCallbackMethod="POST" ` +
          'recordingStatusCallbackEvent="completed absent"/></Response>',
      );
    }
    expect((await rows())[0]!.status).toBe('no-answer');
    const { rows: notices } = await ctx.db.admin.query<{ title: string; link: string }>(
      `select title, link from notifications where user_id = $1 and kind = 'missed-call'`,
      [rep.userId],
    );
    expect(notices).toEqual([
      { title: 'Missed call from +1 (720) 555-0177', link: '/contacts/new?phone=%2B17205550177' },
    ]);
  });

  it('with no browser of the user open, the call is missed at once and the caller hears the greeting', async () => {
    const away = await createAccount(ctx, 'user');
    await allowUnknownLocalTime(ctx.app, away);
    await callFrom(away, CALLER);
    const answer = await comesIn();
    const [call] = await rows();
    expect(call).toMatchObject({ user_id: away.userId, status: 'no-answer' });
    const hook = (name: string) =>
      `${TEST_PUBLIC_URL}/api/telephony/twilio/${name}?callId=${call!.id}`.replace(/&/g, '&amp;');
    expect(answer.body).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response>' +
        '<Say>Sorry, nobody can take your call right now. Please leave a message after the tone.</Say>' +
        `<Record maxLength="120" playBeep="true" timeout="5" action="${hook('voicemail')}" method="POST" ` +
        `recordingStatusCallback="${hook('voicemail-recording')}" recordingStatusCallbackMethod="POST" ` +
        'recordingStatusCallbackEvent="completed absent"/></Response>',
    );
    const { rows: notices } = await ctx.db.admin.query<{ title: string }>(
      `select title from notifications where user_id = $1 and kind = 'missed-call'`,
      [away.userId],
    );
    expect(notices).toEqual([{ title: 'Missed call from +1 (720) 555-0177' }]);
    // Twilio retrying the webhook gets the greeting again: no ringing, no second notification.
    const again = await comesIn(CALLER, `CA${String(sids).padStart(32, '0')}`);
    expect(again.body).toBe(answer.body);
    expect(await rows()).toEqual([expect.objectContaining({ status: 'no-answer' })]);
    expect(
      (await ctx.db.admin.query(`select 1 from notifications where kind = 'missed-call'`)).rowCount,
    ).toBe(1);
  });

  it('fetches a voicemail from Twilio with the account’s credentials, stores it and plays it to the rep', async () => {
    await callFrom(rep, CALLER);
    await comesIn();
    const [call] = await rows();
    await progress(call!.id, { DialCallStatus: 'no-answer', DialCallDuration: '0' });
    const done = await twilioWebhook(ctx.app, `/api/telephony/twilio/voicemail?callId=${call!.id}`, {
      AccountSid: FAKE_ACCOUNT_SID,
      CallSid: 'CA'.padEnd(34, '9'),
      RecordingSid: RECORDING_SID,
      RecordingUrl: `${fake.baseUrl}${RECORDING_PATH}`,
      RecordingDuration: '9',
    });
    expect(done.body).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Say>Thank you for your message. Goodbye.</Say><Hangup/></Response>',
    );
    const mp3 = Buffer.from('ID3 a fake mp3 of nine seconds');
    fake.recordings.set(RECORDING_SID, mp3);
    const ready = await recordingReady(call!.id, `${fake.baseUrl}${RECORDING_PATH}`);
    expect(ready.statusCode).toBe(204);
    const [recording] = await waitFor(
      async () =>
        (
          await ctx.db.admin.query<{ id: string; content_type: string }>(
            'select id, content_type from recordings',
          )
        ).rows,
      (r) => r.length === 1,
    );
    expect(recording!.content_type).toBe('audio/mpeg');
    expect(
      fake.requests
        .filter((r) => r.path.endsWith('.mp3'))
        .map((r) => [r.method, r.path, r.authorization?.user]),
    ).toEqual([['GET', `${RECORDING_PATH}.mp3`, FAKE_ACCOUNT_SID]]);
    const played = await ctx.app.inject({
      method: 'GET',
      url: `/api/recordings/${recording!.id}/audio`,
      headers: asCookie(rep),
    });
    expect(played.headers['content-type']).toBe('audio/mpeg');
    expect(played.rawPayload).toEqual(mp3);
    // Ours stored, Twilio's copy is deleted: our retention holds for the only copy.
    expect(
      await waitFor(
        async () => fake.recordingsDeleted,
        (d) => d.length === 1,
      ),
    ).toEqual([RECORDING_SID]);
    expect(fake.recordings.has(RECORDING_SID)).toBe(false);
  });

  it('retries deleting Twilio’s copy when Twilio cannot be reached, without storing the recording twice', async () => {
    await callFrom(rep, CALLER);
    await comesIn();
    const [call] = await rows();
    await progress(call!.id, { DialCallStatus: 'no-answer', DialCallDuration: '0' });
    fake.recordings.set(RECORDING_SID, Buffer.from('ID3 another fake mp3'));
    fake.recordingDeletesToFail = 1;
    const job = {
      kind: 'voicemail' as const,
      callId: call!.id,
      url: `${fake.baseUrl}${RECORDING_PATH}`,
      providerRecordingId: RECORDING_SID,
      durationSeconds: 9,
    };
    await expect(storeCallRecording(ctx.app.ctx, job)).rejects.toThrow('Service Unavailable');
    expect((await ctx.db.admin.query('select 1 from recordings')).rowCount).toBe(1);
    // The job's next run stores nothing more and deletes Twilio's copy.
    expect(await storeCallRecording(ctx.app.ctx, job)).toBeNull();
    expect((await ctx.db.admin.query('select 1 from recordings')).rowCount).toBe(1);
    expect(fake.recordingsDeleted).toEqual([RECORDING_SID]);
    // Already gone (404) is done.
    await expect(storeCallRecording(ctx.app.ctx, job)).resolves.toBeNull();
  });

  it('never fetches a recording URL on another host than Twilio’s', async () => {
    await callFrom(rep, CALLER);
    await comesIn();
    const [call] = await rows();
    await progress(call!.id, { DialCallStatus: 'no-answer', DialCallDuration: '0' });
    const ready = await recordingReady(call!.id, `http://169.254.169.254${RECORDING_PATH}`);
    expect(ready.statusCode).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await ctx.db.admin.query('select 1 from recordings')).rowCount).toBe(0);
  });
});

const RECORDING_SID = `RE${'a'.repeat(32)}`;
const RECORDING_PATH = `/2010-04-01/Accounts/${FAKE_ACCOUNT_SID}/Recordings/${RECORDING_SID}`;
const recordingReady = (callId: string, url: string) =>
  twilioWebhook(ctx.app, `/api/telephony/twilio/voicemail-recording?callId=${callId}`, {
    AccountSid: FAKE_ACCOUNT_SID,
    CallSid: 'CA'.padEnd(34, '9'),
    RecordingSid: RECORDING_SID,
    RecordingUrl: url,
    RecordingStatus: 'completed',
    RecordingDuration: '9',
  });
