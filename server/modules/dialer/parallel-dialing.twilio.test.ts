import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ParallelState } from '#domain/dialer/parallel-dialing.schema.ts';
import { agentIdentity } from '../../telephony/telephony-provider.ts';
import { seedQueueHistory, waitFor } from '../../test/calls-test-kit.ts';
import { insertContact } from '../../test/contact-factory.ts';
import { FAKE_ACCOUNT_SID, type FakeTwilio } from '../../test/fake-twilio.ts';
import { asCookie, type Session, type TestContext } from '../../test/test-app.ts';
import { TEST_PUBLIC_URL } from '../../test/test-constants.ts';
import { startTwilioRep, twilioWebhook } from '../../test/twilio-test-app.ts';

/*
 * Parallel dialing on Twilio, against the local fake of its REST API (decision 026): each line is placed holding on
 * <Pause> with answering-machine detection; the round tells Twilio what to do with each by updating the live call.
 */

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

const send = (method: 'POST' | 'PUT', url: string, payload: object) =>
  ctx.app.inject({ method, url, headers: asCookie(rep), payload });

const webhook = (callId: string, fields: Record<string, string>) =>
  twilioWebhook(ctx.app, `/api/telephony/twilio/status?callId=${callId}`, fields);

/** A parallel round of two lines on Twilio; each line's call id and the SID Twilio gave it. */
async function twoLines(
  contacts: { phone: string; state?: string }[] = [{ phone: '5550101004' }, { phone: '5550101014' }],
) {
  const ids = [];
  for (const contact of contacts)
    ids.push((await insertContact(ctx.app, rep, { firstName: 'Tw', ...contact })).id);
  const created = await send('POST', '/api/queues', { name: 'Twilio parallel', selection: { ids } });
  const queueId = created.json<{ queue: { id: string } }>().queue.id;
  await send('PUT', `/api/queues/${queueId}/dialing`, { mode: 'parallel', capPercent: null });
  await seedQueueHistory(ctx.db.admin, queueId, 32, ctx.clock.now());
  const walker = randomUUID();
  const started = await send('POST', `/api/queues/${queueId}/parallel/round`, { walker });
  expect(started.statusCode, started.body).toBe(200);
  const lines = started.json<ParallelState>().round!.lines;
  const { rows } = await ctx.db.admin.query<{ id: string; provider_call_id: string }>(
    'select id, provider_call_id from calls where round_id = $1 order by line_no',
    [started.json<ParallelState>().round!.id],
  );
  expect(rows.map((r) => r.id)).toEqual(lines.map((l) => l.callId));
  return rows.map((r) => ({ callId: r.id, sid: r.provider_call_id }));
}
const event = (sid: string, fields: Record<string, string>) => ({
  AccountSid: FAKE_ACCOUNT_SID,
  CallSid: sid,
  ...fields,
});

describe('parallel dialing on Twilio', () => {
  it('places each line holding on <Pause> with detection, hangs up the line still ringing at the first answer and connects the person to the browser phone', async () => {
    const [first, second] = await twoLines();
    const placed = fake.requests.filter((r) => r.path.endsWith('/Calls.json'));
    expect(placed).toHaveLength(2);
    for (const request of placed) {
      expect(request.form.Twiml?.[0]).toBe(
        '<?xml version="1.0" encoding="UTF-8"?><Response><Pause length="60"/></Response>',
      );
      expect(request.form.MachineDetection?.[0]).toBe('DetectMessageEnd');
      expect(request.form.AsyncAmd?.[0]).toBe('true');
    }

    await webhook(first!.callId, event(first!.sid, { CallStatus: 'ringing' }));
    await webhook(second!.callId, event(second!.sid, { CallStatus: 'ringing' }));
    // The first answer releases the line still ringing at once: nobody else picks up while detection listens.
    await webhook(first!.callId, event(first!.sid, { CallStatus: 'in-progress' }));
    expect(fake.callUpdates).toEqual([{ sid: second!.sid, status: 'completed' }]);
    await webhook(
      first!.callId,
      event(first!.sid, { AnsweredBy: 'human', MachineDetectionDuration: '1800' }),
    );
    const updates = await waitFor(
      async () => fake.callUpdates,
      (u) => u.length >= 2,
    );
    const connect = updates.find((u) => u.sid === first!.sid);
    expect(connect?.twiml).toContain(`<Client><Identity>${agentIdentity(rep.userId)}</Identity>`);
    expect(connect?.twiml).toContain(`<Parameter name="callId" value="${first!.callId}"/>`);
  });

  it('plays the identification message to a second person who answered at the same moment, and hangs up', async () => {
    const [first, second] = await twoLines();
    // Both pick up at once: the second answer is stored while the first one's round is being decided.
    await ctx.db.admin.query(`update calls set status = 'in-progress', answered_at = now() where id = $1`, [
      second!.callId,
    ]);
    await webhook(first!.callId, event(first!.sid, { CallStatus: 'in-progress' }));
    expect(fake.callUpdates).toEqual([]); // neither is released: both are people or machines to tell apart
    await webhook(first!.callId, event(first!.sid, { AnsweredBy: 'human' }));
    await webhook(second!.callId, event(second!.sid, { AnsweredBy: 'human' }));
    const updates = await waitFor(
      async () => fake.callUpdates,
      (u) => u.length >= 2,
    );
    const message = updates.find((u) => u.sid === second!.sid)?.twiml ?? '';
    expect(message).toMatch(/<Say>Hello, this is .* calling\. Sorry we missed you just now\./);
    expect(message).toContain('dial 500 555 0006. Goodbye.</Say><Hangup/>');
    const { rows } = await ctx.db.admin.query<{ abandoned_at: Date | null; line_state: string }>(
      'select abandoned_at, line_state from calls where id = $1',
      [second!.callId],
    );
    expect(rows[0]).toMatchObject({ line_state: 'abandoned' });
    expect(rows[0]!.abandoned_at).not.toBeNull();
  });

  it('records the line put through to the rep, from then, where no disclosure is needed; a California line never', async () => {
    // 1 pm in Texas, 11 am in California: within calling hours.
    ctx.clock.set(new Date('2026-11-21T19:00:00Z'));
    const on = await send('PUT', '/api/recording-settings', { recordCalls: true, retentionDays: 90 });
    expect(on.statusCode).toBe(200);
    const [texas, california] = await twoLines([
      { phone: '5125550104', state: 'TX' },
      { phone: '4155550114', state: 'CA' },
    ]);
    const { rows } = await ctx.db.admin.query<{ id: string; recorded: boolean }>(
      'select id, recorded from calls where id = any($1)',
      [[texas!.callId, california!.callId]],
    );
    expect(Object.fromEntries(rows.map((r) => [r.id, r.recorded]))).toEqual({
      [texas!.callId]: true,
      [california!.callId]: false,
    });
    // Held lines are not recorded from their creation: nothing before the rep is on the line.
    for (const request of fake.requests.filter((r) => r.path.endsWith('/Calls.json')))
      expect(request.form.Record).toBeUndefined();

    await webhook(texas!.callId, event(texas!.sid, { CallStatus: 'in-progress' }));
    await webhook(texas!.callId, event(texas!.sid, { AnsweredBy: 'human' }));
    const started = await waitFor(
      async () => fake.recordingsStarted,
      (r) => r.length > 0,
    );
    expect(started).toEqual([
      {
        callSid: texas!.sid,
        channels: 'dual',
        statusCallback: `${TEST_PUBLIC_URL}/api/telephony/twilio/call-recording?callId=${texas!.callId}`,
      },
    ]);
  });
});
