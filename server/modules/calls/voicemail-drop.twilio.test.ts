import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newRequestId } from '#domain/calls/call-guard.ts';
import type { VoicemailDrop } from '#domain/recordings/voicemail-drop.ts';
import { readWavInfo } from '#domain/recordings/wav.ts';
import { FAKE_ACCOUNT_SID, type FakeTwilio } from '../../test/fake-twilio.ts';
import { TEST_PUBLIC_URL } from '../../test/test-constants.ts';
import { asCookie, type Session, type TestContext } from '../../test/test-app.ts';
import { insertContact } from '../../test/contact-factory.ts';
import { toneWav } from '../../test/calls-test-kit.ts';
import { startTwilioRep, twilioWebhook } from '../../test/twilio-test-app.ts';

/*
 * Voicemail drop on Twilio (decision 031), against a local fake of its REST API: once detection says a machine
 * answered (AnsweredBy machine_end_beep: its greeting is over), the drop redirects the called leg to <Play> the
 * message from a signed URL Twilio can fetch without a session, then <Hangup>.
 */

let fake: FakeTwilio;
let ctx: TestContext;
let rep: Session;
beforeEach(async () => {
  ({ fake, ctx, rep } = await startTwilioRep());
  ctx.clock.set(new Date('2026-11-21T18:00:00Z'));
});
afterEach(async () => {
  await ctx.close();
  await fake.close();
});

const send = (method: 'GET' | 'POST', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: asCookie(rep), ...(payload !== undefined && { payload }) });

describe('voicemail drop on Twilio', () => {
  it('plays the message to the machine from a signed URL, then hangs up', async () => {
    const uploaded = await ctx.app.inject({
      method: 'POST',
      url: '/api/voicemail/drops?name=Intro',
      headers: { ...asCookie(rep), 'content-type': 'audio/wav' },
      payload: Buffer.from(toneWav(3)),
    });
    const [drop] = uploaded.json<{ drops: VoicemailDrop[] }>().drops;
    const contact = await insertContact(ctx.app, rep, { phone: '(512) 555-0142' });
    await send('POST', `/api/contacts/${contact.id}/consent/express`, {
      givenOn: '2026-10-01',
      source: 'Web form',
    });
    const placed = await send('POST', '/api/calls', { contactId: contact.id, requestId: newRequestId() });
    expect(placed.statusCode, placed.body).toBe(201);
    const callId = placed.json<{ call: { id: string } }>().call.id;
    const [request] = fake.requests;
    // Detection waits for the end of the greeting, so a message dropped then is heard whole after the tone.
    expect(request!.form.MachineDetection).toEqual(['DetectMessageEnd']);
    const sid = fake.created[0]!;
    const status = `/api/telephony/twilio/status?callId=${callId}`;
    await twilioWebhook(ctx.app, status, {
      AccountSid: FAKE_ACCOUNT_SID,
      CallSid: sid,
      CallStatus: 'in-progress',
    });
    await twilioWebhook(ctx.app, status, {
      AccountSid: FAKE_ACCOUNT_SID,
      CallSid: sid,
      AnsweredBy: 'machine_end_beep',
    });

    const dropped = await send('POST', `/api/calls/${callId}/voicemail-drop`, { dropId: drop!.id });
    expect(dropped.statusCode, dropped.body).toBe(200);
    const [update] = fake.callUpdates;
    expect(update!.sid).toBe(sid);
    const played = /^<\?xml[^>]*><Response><Play>([^<]+)<\/Play><Hangup\/><\/Response>$/.exec(
      update!.twiml ?? '',
    );
    expect(played, update!.twiml).not.toBeNull();
    const audioUrl = played![1]!.replaceAll('&amp;', '&');
    expect(audioUrl.startsWith(`${TEST_PUBLIC_URL}/api/recordings/${drop!.recording.id}/signed-audio?`)).toBe(
      true,
    );
    // Twilio fetches it without a session.
    const fetched = await ctx.app.inject({ method: 'GET', url: audioUrl.slice(TEST_PUBLIC_URL.length) });
    expect(fetched.statusCode).toBe(200);
    expect(readWavInfo(fetched.rawPayload)?.durationSeconds).toBe(3);
  });

  it('leaves the call as it was when Twilio refuses the redirect', async () => {
    const uploaded = await ctx.app.inject({
      method: 'POST',
      url: '/api/voicemail/drops?name=Intro',
      headers: { ...asCookie(rep), 'content-type': 'audio/wav' },
      payload: Buffer.from(toneWav(1)),
    });
    const [drop] = uploaded.json<{ drops: VoicemailDrop[] }>().drops;
    const contact = await insertContact(ctx.app, rep, { phone: '(512) 555-0143' });
    await send('POST', `/api/contacts/${contact.id}/consent/express`, {
      givenOn: '2026-10-01',
      source: 'Web form',
    });
    const callId = (
      await send('POST', '/api/calls', { contactId: contact.id, requestId: newRequestId() })
    ).json<{
      call: { id: string };
    }>().call.id;
    const sid = fake.created[0]!;
    await twilioWebhook(ctx.app, `/api/telephony/twilio/status?callId=${callId}`, {
      AccountSid: FAKE_ACCOUNT_SID,
      CallSid: sid,
      CallStatus: 'in-progress',
    });
    // Twilio no longer knows the call (it was over and purged): it refuses the redirect in its own words.
    await ctx.db.admin.query('update calls set provider_call_id = $2 where id = $1', [
      callId,
      `CA${'9'.repeat(32)}`,
    ]);
    const refused = await send('POST', `/api/calls/${callId}/voicemail-drop`, { dropId: drop!.id });
    expect(refused.statusCode).toBe(502);
    expect(refused.json<{ message: string }>().message).toMatch(/^The requested resource .* was not found$/);
    const row = await ctx.db.admin.query(
      'select voicemail_dropped_at, (select count(*)::int from call_dispositions where call_id = $1) as dispositions from calls where id = $1',
      [callId],
    );
    expect(row.rows[0]).toEqual({ voicemail_dropped_at: null, dispositions: 0 });
  });
});
