import twilio from 'twilio';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newRequestId } from '#domain/calls/call-guard.ts';
import { agentIdentity } from '../../telephony/telephony-provider.ts';
import { FAKE_ACCOUNT_SID, FAKE_AUTH_TOKEN, type FakeTwilio } from '../../test/fake-twilio.ts';
import { TEST_PUBLIC_URL } from '../../test/test-constants.ts';
import {
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';
import { insertContact } from '../../test/contact-factory.ts';
import {
  TWILIO_API_KEY_SID,
  TWILIO_CALLER_ID,
  TWILIO_TWIML_APP_SID,
  startTwilioRep,
  twilioWebhook,
} from '../../test/twilio-test-app.ts';

const API_KEY_SID = TWILIO_API_KEY_SID;
const TWIML_APP_SID = TWILIO_TWIML_APP_SID;
const CALLER_ID = TWILIO_CALLER_ID;

let fake: FakeTwilio;
let ctx: TestContext;
let rep: Session;

beforeEach(async () => {
  ({ fake, ctx, rep } = await startTwilioRep());
});
afterEach(async () => {
  await ctx.close();
  await fake.close();
});

const call = (payload: object, as: Session = rep) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/calls',
    headers: asCookie(as),
    payload: { requestId: newRequestId(), ...payload },
  });
const callRow = async (id: string) =>
  (
    await ctx.db.admin.query(
      'select status, provider_call_id, duration_seconds, answered_at, error from calls where id = $1',
      [id],
    )
  ).rows[0];

const webhook = (path: string, fields: Record<string, string>, token = FAKE_AUTH_TOKEN, headers = {}) =>
  twilioWebhook(ctx.app, path, fields, token, headers);
const statusPath = (callId: string) => `/api/telephony/twilio/status?callId=${callId}`;
const status = (callSid: string, callStatus: string, extra: Record<string, string> = {}) => ({
  AccountSid: FAKE_ACCOUNT_SID,
  CallSid: callSid,
  CallStatus: callStatus,
  ...extra,
});

describe('the Twilio adapter, against a local fake of its REST API', () => {
  it("places a call as Twilio's published API describes, bridged to the agent's browser phone", async () => {
    const contact = await insertContact(ctx.app, rep, { phone: '(555) 010-0005' });
    const placed = await call({ contactId: contact.id });
    expect(placed.statusCode).toBe(201);
    const made = placed.json().call;
    expect(made).toMatchObject({
      provider: 'twilio',
      status: 'initiated',
      from: CALLER_ID,
      to: '+15550100005',
    });

    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request).toMatchObject({
      method: 'POST',
      path: `/2010-04-01/Accounts/${FAKE_ACCOUNT_SID}/Calls.json`,
      contentType: expect.stringContaining('application/x-www-form-urlencoded'),
      authorization: { user: FAKE_ACCOUNT_SID, password: FAKE_AUTH_TOKEN },
    });
    expect(request!.form).toMatchObject({
      To: ['+15550100005'],
      From: [CALLER_ID],
      StatusCallback: [`${TEST_PUBLIC_URL}/api/telephony/twilio/status?callId=${made.id}`],
      StatusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
      StatusCallbackMethod: ['POST'],
      // Answering-machine detection in the background, its result posted to the same status URL.
      MachineDetection: ['DetectMessageEnd'],
      AsyncAmd: ['true'],
      AsyncAmdStatusCallback: [`${TEST_PUBLIC_URL}/api/telephony/twilio/status?callId=${made.id}`],
      AsyncAmdStatusCallbackMethod: ['POST'],
    });
    const twiml = request!.form.Twiml![0]!;
    expect(twiml).toContain(`<Identity>${agentIdentity(rep.userId)}</Identity>`);
    expect(twiml).toContain(`<Parameter name="callId" value="${made.id}"/>`);
    expect((await callRow(made.id)).provider_call_id).toMatch(/^CA[0-9a-f]{32}$/);
  });

  it("moves the call on status webhooks signed with Twilio's helper, and refuses forged ones", async () => {
    const contact = await insertContact(ctx.app, rep, { phone: '(555) 010-0005' });
    const made = (await call({ contactId: contact.id })).json().call;
    const sid = (await callRow(made.id)).provider_call_id as string;

    // Forged: another auth token, the event of another call id, no signature at all. Nothing is written.
    expect((await webhook(statusPath(made.id), status(sid, 'completed'), 'not-the-token')).statusCode).toBe(
      403,
    );
    const signedForOther = twilio.getExpectedTwilioSignature(
      FAKE_AUTH_TOKEN,
      `${TEST_PUBLIC_URL}${statusPath('00000000-0000-4000-8000-000000000000')}`,
      status(sid, 'completed'),
    );
    const replayed = await ctx.app.inject({
      method: 'POST',
      url: statusPath(made.id),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signedForOther },
      payload: new URLSearchParams(status(sid, 'completed')).toString(),
    });
    expect(replayed.statusCode).toBe(403);
    const unsigned = await ctx.app.inject({
      method: 'POST',
      url: statusPath(made.id),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(status(sid, 'completed')).toString(),
    });
    expect(unsigned.statusCode).toBe(403);
    expect((await callRow(made.id)).status).toBe('initiated');

    // Genuine, behind a proxy (another Host): verified against PUBLIC_URL.
    expect(
      (
        await webhook(statusPath(made.id), status(sid, 'ringing'), FAKE_AUTH_TOKEN, {
          host: 'app:3000',
        })
      ).statusCode,
    ).toBe(204);
    expect((await webhook(statusPath(made.id), status(sid, 'in-progress'))).statusCode).toBe(204);
    expect(
      (await webhook(statusPath(made.id), status(sid, 'completed', { CallDuration: '42' }))).statusCode,
    ).toBe(204);
    // Twilio retries: a late 'ringing' changes nothing.
    expect((await webhook(statusPath(made.id), status(sid, 'ringing'))).statusCode).toBe(204);
    // The async AMD callback (CallSid, AnsweredBy, MachineDetectionDuration; no CallStatus), signed the same way.
    const amd = {
      AccountSid: FAKE_ACCOUNT_SID,
      CallSid: sid,
      AnsweredBy: 'machine_start',
      MachineDetectionDuration: '2300',
    };
    expect((await webhook(statusPath(made.id), amd, 'not-the-token')).statusCode).toBe(403);
    expect((await webhook(statusPath(made.id), amd)).statusCode).toBe(204);
    expect(
      (await ctx.db.admin.query('select answered_by from calls where id = $1', [made.id])).rows[0],
    ).toEqual({
      answered_by: 'machine',
    });
    expect(await callRow(made.id)).toMatchObject({
      status: 'completed',
      duration_seconds: 42,
      answered_at: expect.any(Date),
    });
  });

  it("ends a live call with Twilio's hang-up", async () => {
    const contact = await insertContact(ctx.app, rep, { phone: '(555) 010-0005' });
    const made = (await call({ contactId: contact.id })).json().call;
    const sid = (await callRow(made.id)).provider_call_id as string;
    const hangUp = await ctx.app.inject({
      method: 'POST',
      url: `/api/calls/${made.id}/hangup`,
      headers: asCookie(rep),
    });
    expect(hangUp.statusCode).toBeLessThan(300);
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: `/2010-04-01/Accounts/${FAKE_ACCOUNT_SID}/Calls/${sid}.json`,
      form: { Status: ['completed'] },
    });
  });

  it('ends a call whose END CALL came before Twilio answered for it, as soon as Twilio answers', async () => {
    fake.delayMs = 400;
    const placing = call({ to: '(555) 010-0005' });
    let id: string | undefined;
    for (let i = 0; i < 50 && !id; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      id = (await ctx.db.admin.query(`select id from calls where to_number = '+15550100005'`)).rows[0]?.id;
    }
    const hangUp = await ctx.app.inject({
      method: 'POST',
      url: `/api/calls/${id}/hangup`,
      headers: asCookie(rep),
    });
    expect(hangUp.statusCode).toBe(204);
    expect((await callRow(id!)).status).toBe('canceled');
    const placed = await placing;
    expect(placed.json().call).toMatchObject({ id, status: 'canceled' });
    const sid = (await callRow(id!)).provider_call_id as string;
    expect(sid).toMatch(/^CA/);
    expect(fake.requests.at(-1)).toMatchObject({
      path: `/2010-04-01/Accounts/${FAKE_ACCOUNT_SID}/Calls/${sid}.json`,
      form: { Status: ['completed'] },
    });
    // Twilio's events for it change nothing now.
    expect((await webhook(statusPath(id!), status(sid, 'in-progress'))).statusCode).toBe(204);
    expect((await callRow(id!)).status).toBe('canceled');
  });

  it('places one call for the same request sent twice at once while Twilio is slow to answer', async () => {
    fake.delayMs = 300;
    const requestId = newRequestId();
    const both = await Promise.all([
      call({ to: '(555) 010-0005', requestId }),
      call({ to: '(555) 010-0005', requestId }),
    ]);
    expect(both.map((a) => a.statusCode)).toEqual([201, 201]);
    expect(both[1].json().call.id).toBe(both[0].json().call.id);
    expect(fake.requests.filter((r) => r.form.To?.[0] === '+15550100005')).toHaveLength(1);
  });

  it("answers Twilio's own words when it refuses a call, and gives up on a slow API at once", async () => {
    fake.unverified.add('+15550100007');
    const refused = await call({ to: '(555) 010-0007' });
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toMatchObject({
      code: 'PROVIDER_ERROR',
      message: expect.stringMatching(/unverified/),
    });
    const failed = await ctx.db.admin.query(
      "select status, error from calls where to_number = '+15550100007'",
    );
    expect(failed.rows).toEqual([{ status: 'failed', error: expect.stringMatching(/unverified/) }]);

    fake.delayMs = 3000;
    const started = Date.now();
    const slow = await call({ to: '(555) 010-0008' });
    expect(slow.statusCode).toBe(502);
    expect(Date.now() - started).toBeLessThan(2500);
    expect(fake.requests.filter((r) => r.form.To?.[0] === '+15550100008')).toHaveLength(1);

    // Twilio placed it after all: its first event gets it hung up, and our record stays failed.
    const id = (await ctx.db.admin.query(`select id from calls where to_number = '+15550100008'`)).rows[0].id;
    while (fake.created.length < 1) await new Promise((resolve) => setTimeout(resolve, 50));
    fake.delayMs = 0;
    const late = fake.created[0]!;
    expect((await webhook(statusPath(id), status(late, 'ringing'))).statusCode).toBe(204);
    expect(fake.requests.at(-1)).toMatchObject({
      path: `/2010-04-01/Accounts/${FAKE_ACCOUNT_SID}/Calls/${late}.json`,
      form: { Status: ['completed'] },
    });
    expect((await callRow(id)).status).toBe('failed');
  });

  it("gives the browser phone a token for the user's own identity, with a voice grant", async () => {
    const answer = await ctx.app.inject({
      method: 'GET',
      url: '/api/calls/voice-token',
      headers: asCookie(rep),
    });
    expect(answer.statusCode).toBe(200);
    const { token, identity } = answer.json();
    expect(identity).toBe(agentIdentity(rep.userId));
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
    expect(claims).toMatchObject({
      iss: API_KEY_SID,
      sub: FAKE_ACCOUNT_SID,
      grants: {
        identity,
        voice: { incoming: { allow: true }, outgoing: { application_sid: TWIML_APP_SID } },
      },
    });
    expect(claims.exp - claims.iat).toBe(3600);
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/calls/voice-token' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('dials a browser-originated call through the Voice URL once, the number the server recorded', async () => {
    const asked = await call({ to: '(555) 010-0009', via: 'browser' });
    expect(asked.statusCode).toBe(201);
    const made = asked.json().call;
    expect(made.status).toBe('queued');
    expect(fake.requests).toHaveLength(0); // the browser phone connects it, not the REST API

    const voice = (fields: Record<string, string>) => webhook('/api/telephony/twilio/voice', fields);
    const from = `client:${agentIdentity(rep.userId)}`;
    const parent = {
      AccountSid: FAKE_ACCOUNT_SID,
      CallSid: `CA${'a'.repeat(32)}`,
      To: '',
      Direction: 'inbound',
    };

    const other = await createAccount(ctx, 'user');
    const stranger = await voice({
      ...parent,
      From: `client:${agentIdentity(other.userId)}`,
      callId: made.id,
    });
    expect(stranger.body).toContain('<Hangup/>');

    const dialled = await voice({ ...parent, From: from, callId: made.id, To: '+19995550000' });
    expect(dialled.statusCode).toBe(200);
    expect(dialled.headers['content-type']).toMatch(/^text\/xml/);
    expect(dialled.body).toContain(`<Dial callerId="${CALLER_ID}" answerOnBridge="true">`);
    expect(dialled.body).toContain(
      `statusCallback="${TEST_PUBLIC_URL}/api/telephony/twilio/status?callId=${made.id}"`.replace(
        /&/g,
        '&amp;',
      ),
    );
    expect(dialled.body).toContain('>+15550100009</Number>');
    expect(dialled.body).toContain('machineDetection="DetectMessageEnd"');
    expect(dialled.body).toContain(
      `amdStatusCallback="${TEST_PUBLIC_URL}/api/telephony/twilio/status?callId=${made.id}"`,
    );
    expect(dialled.body).not.toContain('+19995550000');

    const again = await voice({ ...parent, From: from, callId: made.id });
    expect(again.body).toContain('<Say>This call was already placed or has expired.</Say><Hangup/>');

    // The dialled leg's events find the call by our id in the callback URL.
    const child = `CA${'b'.repeat(32)}`;
    expect((await webhook(statusPath(made.id), status(child, 'ringing'))).statusCode).toBe(204);
    expect(await callRow(made.id)).toMatchObject({ status: 'ringing', provider_call_id: child });

    const unsigned = await ctx.app.inject({
      method: 'POST',
      url: '/api/telephony/twilio/voice',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ...parent, From: from, callId: made.id }).toString(),
    });
    expect(unsigned.statusCode).toBe(403);
  });
});

describe('the browser phone on the simulator', () => {
  it('needs no token and lets the server place calls', async () => {
    const simulator = await createTestApp();
    try {
      const user = await createAccount(simulator, 'user');
      const token = await simulator.app.inject({
        method: 'GET',
        url: '/api/calls/voice-token',
        headers: asCookie(user),
      });
      expect(token.statusCode).toBe(503);
      expect(token.json()).toMatchObject({
        code: 'NOT_CONFIGURED',
        message: expect.stringContaining('Server configuration error'),
      });
      const browser = await simulator.app.inject({
        method: 'POST',
        url: '/api/calls',
        headers: asCookie(user),
        payload: { requestId: newRequestId(), to: '5550100005', via: 'browser' },
      });
      expect(browser.statusCode).toBe(400);
      const voice = await simulator.app.inject({
        method: 'POST',
        url: '/api/telephony/twilio/voice',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'callId=x',
      });
      expect(voice.statusCode).toBe(404);
    } finally {
      await simulator.close();
    }
  });
});
