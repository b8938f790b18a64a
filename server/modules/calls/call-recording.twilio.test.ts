import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newRequestId } from '#domain/calls/call-guard.ts';
import { FAKE_ACCOUNT_SID, type FakeTwilio } from '../../test/fake-twilio.ts';
import { TEST_PUBLIC_URL } from '../../test/test-constants.ts';
import { asCookie, type Session, type TestContext } from '../../test/test-app.ts';
import { agentIdentity } from '../../telephony/telephony-provider.ts';
import { insertContact } from '../../test/contact-factory.ts';
import { waitFor } from '../../test/calls-test-kit.ts';
import { startTwilioRep, twilioWebhook } from '../../test/twilio-test-app.ts';

/*
 * Call recording on Twilio (decision 030), against a local fake of its REST API and the signed webhooks it posts:
 * the call is created with Record and a recording callback, the disclosure is said to the called person first where
 * the law asks for it, and the recording is fetched from Twilio's API and stored.
 */

let fake: FakeTwilio;
let ctx: TestContext;
let rep: Session;
beforeEach(async () => {
  ({ fake, ctx, rep } = await startTwilioRep());
  ctx.clock.set(new Date('2026-11-21T18:00:00Z'));
  const on = await ctx.app.inject({
    method: 'PUT',
    url: '/api/recording-settings',
    headers: asCookie(rep),
    payload: { recordCalls: true, retentionDays: 90 },
  });
  expect(on.statusCode).toBe(200);
});
afterEach(async () => {
  await ctx.close();
  await fake.close();
});

const call = (payload: object) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/calls',
    headers: asCookie(rep),
    payload: { requestId: newRequestId(), ...payload },
  });
const url = (path: string) => `${TEST_PUBLIC_URL}${path}`;
const RECORDING_SID = `RE${'c'.repeat(32)}`;
const RECORDING_PATH = `/2010-04-01/Accounts/${FAKE_ACCOUNT_SID}/Recordings/${RECORDING_SID}`;

describe('call recording on Twilio', () => {
  it('creates a call to a California contact recorded, the disclosure said before the agent is connected', async () => {
    const contact = await insertContact(ctx.app, rep, { phone: '(415) 555-0105' });
    const placed = await call({ contactId: contact.id });
    expect(placed.statusCode, placed.body).toBe(201);
    const made = placed.json<{ call: { id: string; recorded: boolean; recordingDisclosure: string } }>().call;
    expect(made).toMatchObject({ recorded: true, recordingDisclosure: 'This call is recorded.' });
    const [request] = fake.requests;
    expect(request!.form).toMatchObject({
      Record: ['true'],
      RecordingStatusCallback: [url(`/api/telephony/twilio/call-recording?callId=${made.id}`)],
      RecordingStatusCallbackEvent: ['completed'],
    });
    expect(request!.form.Twiml![0]).toMatch(
      new RegExp(`^<\\?xml[^>]*><Response><Say>This call is recorded\\.</Say><Dial answerOnBridge="true">`),
    );

    // The recording, once ready, is fetched from Twilio's API and kept with the call.
    fake.recordings.set(RECORDING_SID, Buffer.from('ID3 the recorded call'));
    const ready = await twilioWebhook(ctx.app, `/api/telephony/twilio/call-recording?callId=${made.id}`, {
      AccountSid: FAKE_ACCOUNT_SID,
      CallSid: 'CA'.padEnd(34, '7'),
      RecordingSid: RECORDING_SID,
      RecordingUrl: `${fake.baseUrl}${RECORDING_PATH}`,
      RecordingStatus: 'completed',
      RecordingDuration: '37',
    });
    expect(ready.statusCode).toBe(204);
    const rows = await waitFor(
      async () =>
        (
          await ctx.db.admin.query<{ kind: string; content_type: string; duration_seconds: string }>(
            'select kind, content_type, duration_seconds from recordings where call_id = $1',
            [made.id],
          )
        ).rows,
      (r) => r.length === 1,
    );
    expect(rows).toEqual([{ kind: 'call', content_type: 'audio/mpeg', duration_seconds: '37.00' }]);
  });

  it('records a browser-originated call; the disclosure plays through <Number url> only where the law asks', async () => {
    const voice = async (callId: string) =>
      twilioWebhook(ctx.app, '/api/telephony/twilio/voice', {
        AccountSid: FAKE_ACCOUNT_SID,
        CallSid: `CA${'a'.repeat(32)}`,
        To: '',
        Direction: 'inbound',
        From: `client:${agentIdentity(rep.userId)}`,
        callId,
      });
    const texas = await insertContact(ctx.app, rep, { phone: '(512) 555-0109' });
    const toTexas = (await call({ contactId: texas.id, via: 'browser' })).json<{ call: { id: string } }>()
      .call;
    const dialled = (await voice(toTexas.id)).body;
    expect(dialled).toContain('record="record-from-answer-dual"');
    expect(dialled).toContain(
      `recordingStatusCallback="${url(`/api/telephony/twilio/call-recording?callId=${toTexas.id}`)}"`,
    );
    expect(dialled).not.toContain('/api/telephony/twilio/disclosure');

    const california = await insertContact(ctx.app, rep, { phone: '(415) 555-0109' });
    const toCalifornia = (await call({ contactId: california.id, via: 'browser' })).json<{
      call: { id: string };
    }>().call;
    const disclosed = (await voice(toCalifornia.id)).body;
    const disclosureUrl = url(`/api/telephony/twilio/disclosure?callId=${toCalifornia.id}`);
    expect(disclosed).toContain(`url="${disclosureUrl}"`);
    const heard = await twilioWebhook(ctx.app, `/api/telephony/twilio/disclosure?callId=${toCalifornia.id}`, {
      AccountSid: FAKE_ACCOUNT_SID,
      CallSid: `CA${'b'.repeat(32)}`,
    });
    expect(heard.body).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Say>This call is recorded.</Say></Response>',
    );
  });
});
