import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signSimulatorFields } from '../../telephony/simulator.ts';
import {
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
  allowUnknownLocalTime,
} from '../../test/test-app.ts';
import { callRowOf, placeCallAs, waitFor } from '../../test/calls-test-kit.ts';

let ctx: TestContext;
let rep: Session;

beforeEach(async () => {
  ctx = await createTestApp();
  rep = await createAccount(ctx, 'user');
  await allowUnknownLocalTime(ctx.app, rep);
});
afterEach(() => ctx.close());

const call = (payload: object, as: Session = rep) => placeCallAs(ctx.app, as, payload);
const callRow = (id: string) => callRowOf(ctx, id);

describe('status webhooks', () => {
  const post = (fields: Record<string, string>, signature?: string, query = '') =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/telephony/simulator/status${query}`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(signature !== undefined && { 'x-simulator-signature': signature }),
      },
      payload: new URLSearchParams(fields).toString(),
    });
  // The app's simulator secret is derived from the session secret (app.ts); tests sign with the same rule.
  const secret = () =>
    createHmac('sha256', 'test-session-secret-that-is-long-enough-1234')
      .update('telephony-simulator')
      .digest('base64url');
  /**
   * A call with no provider id yet, as when its first event overtakes the provider's answer to placeCall. Placed
   * to 996… (a provider that never answers), so the simulator sends no events of its own for it.
   */
  const callWithoutProviderId = async (to: string) => {
    expect((await call({ to })).statusCode).toBe(502);
    const id = (await ctx.db.admin.query('select id from calls where to_number = $1', [`+1${to}`])).rows[0]
      .id as string;
    await ctx.db.admin.query(
      `update calls set provider_call_id = null, status = 'queued', ended_at = null where id = $1`,
      [id],
    );
    return id;
  };

  it('refuses a missing or wrong signature and writes nothing', async () => {
    const placed = await call({ to: '5550100011' });
    const sid = (await ctx.db.admin.query('select provider_call_id from calls')).rows[0]
      .provider_call_id as string;
    const fields = { CallSid: sid, CallStatus: 'completed', CallDuration: '99' };
    expect((await post(fields)).statusCode).toBe(403);
    expect((await post(fields, signSimulatorFields('wrong secret', fields))).statusCode).toBe(403);
    const row = await callRow(placed.json().call.id);
    expect(row.duration_seconds).not.toBe(99);
  });

  it('refuses a signature of the right length in non-ASCII characters with 403, not a crash', async () => {
    const placed = await call({ to: '5550100011' });
    const sid = (await ctx.db.admin.query('select provider_call_id from calls')).rows[0]
      .provider_call_id as string;
    const fields = { CallSid: sid, CallStatus: 'completed' };
    const length = signSimulatorFields(secret(), fields).length;
    for (const forged of ['é'.repeat(length), '😀'.repeat(length / 2), `${'a'.repeat(length - 1)}\u00ff`]) {
      const response = await post(fields, forged);
      expect(response.statusCode, forged).toBe(403);
    }
    expect((await callRow(placed.json().call.id)).status).not.toBe('completed');
  });

  it('ignores a signed duration that is not a sane whole number of seconds, and still ends the call', async () => {
    for (const [i, duration] of ['99999999999', '-5', '1e3', '2147483648', 'NaN', '12.5'].entries()) {
      const id = await callWithoutProviderId(`99655502${i}3`);
      const fields = {
        CallSid: `CA${id.replace(/-/g, '')}`,
        CallStatus: 'completed',
        CallDuration: duration,
      };
      const query = `?callId=${id}`;
      const response = await post(fields, signSimulatorFields(secret(), fields, query), query);
      expect(response.statusCode, duration).toBe(204);
      const row = await callRow(id);
      expect(row.status).toBe('completed');
      expect(row.duration_seconds).toBeGreaterThanOrEqual(0);
      expect(row.duration_seconds).toBeLessThan(10_000);
    }
  });

  it('applies shuffled, repeated events for 100 calls once each, ending every call in its right state', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) {
      await ctx.db.admin.query(
        `insert into calls (user_id, request_id, provider, provider_call_id, from_number, to_number, status, updated_at)
         values ($1, $2, 'simulator', $3, '+15550100000', $4, 'initiated', now())`,
        [
          rep.userId,
          `r${String(i).padStart(7, '0')}`,
          `SIMTEST${i}`,
          `+1555020${String(i).padStart(4, '0')}`,
        ],
      );
      ids.push(`SIMTEST${i}`);
    }
    const finals = ['completed', 'busy', 'no-answer', 'failed'];
    const events = ids.flatMap((sid, i) => {
      const final = finals[i % 4]!;
      const path = final === 'completed' ? ['ringing', 'in-progress', 'completed'] : ['ringing', final];
      return [...path, ...path].map((status) => ({
        CallSid: sid,
        CallStatus: status,
        ...(status === final ? { CallDuration: '42' } : {}),
      }));
    });
    events.sort(() => Math.random() - 0.5);
    const key = secret();
    for (const fields of events)
      expect((await post(fields, signSimulatorFields(key, fields))).statusCode).toBe(204);
    const rows = (
      await ctx.db.admin.query(
        `select provider_call_id, status, duration_seconds from calls where provider_call_id like 'SIMTEST%'`,
      )
    ).rows;
    for (const row of rows) {
      const i = Number(String(row.provider_call_id).replace('SIMTEST', ''));
      expect({ sid: row.provider_call_id, status: row.status }).toEqual({
        sid: row.provider_call_id,
        status: finals[i % 4],
      });
      expect(row.duration_seconds).toBe(42);
    }
  });

  it('applies both of two events racing for a call whose provider id is not stored yet', async () => {
    const lost: string[] = [];
    for (let i = 0; i < 20; i++) {
      const id = await callWithoutProviderId(`99655501${String(i).padStart(2, '0')}`);
      const query = `?callId=${id}`;
      const event = (status: string) => {
        const fields = { CallSid: `SIMRACE${i}`, CallStatus: status };
        return post(fields, signSimulatorFields(secret(), fields, query), query);
      };
      await Promise.all([event('ringing'), event('busy')]);
      const { status } = await callRow(id);
      if (status !== 'busy') lost.push(`${i}: ${status}`);
    }
    expect(lost).toEqual([]);
  });

  it('records who answered, as answering-machine detection tells it: the first result stands', async () => {
    const machine = (await call({ to: '5550100013' })).json().call.id as string;
    const person = (
      await call(
        { to: '5550100027' },
        await createAccount(ctx, 'user').then(async (other) => {
          await allowUnknownLocalTime(ctx.app, other);
          return other;
        }),
      )
    ).json().call.id as string;
    const answeredBy = async (id: string) =>
      (await ctx.db.admin.query('select answered_by from calls where id = $1', [id])).rows[0].answered_by;
    await waitFor(
      () => answeredBy(machine),
      (v) => v !== null,
    );
    await waitFor(
      () => answeredBy(person),
      (v) => v !== null,
    );
    expect(await answeredBy(machine)).toBe('machine');
    expect(await answeredBy(person)).toBe('human');
    // The rep sees it on the call.
    expect(
      (await ctx.app.inject({ url: `/api/calls/${machine}`, headers: asCookie(rep) })).json().call,
    ).toMatchObject({ answeredBy: 'machine' });
    // A later result, signed, changes nothing; an unsigned one is refused.
    const sid = (await ctx.db.admin.query('select provider_call_id from calls where id = $1', [machine]))
      .rows[0].provider_call_id as string;
    const fields = { CallSid: sid, AnsweredBy: 'human' };
    expect((await post(fields)).statusCode).toBe(403);
    expect((await post(fields, signSimulatorFields(secret(), fields))).statusCode).toBe(204);
    expect(await answeredBy(machine)).toBe('machine');
    // An AnsweredBy value that is not one of Twilio's is ignored.
    const id = await callWithoutProviderId('9965550133');
    const odd = { CallSid: 'SIMODD', AnsweredBy: 'robot' };
    const query = `?callId=${id}`;
    expect((await post(odd, signSimulatorFields(secret(), odd, query), query)).statusCode).toBe(204);
    expect(await answeredBy(id)).toBeNull();
  });

  it('finds the call by our id in the callback URL when an event comes before the provider id is stored', async () => {
    const id = await callWithoutProviderId('9965550100');
    const fields = { CallSid: 'SIMEARLY1', CallStatus: 'ringing' };
    const query = `?callId=${id}`;
    // The call id is signed with the rest: a signature made for another URL does not verify.
    expect((await post(fields, signSimulatorFields(secret(), fields), query)).statusCode).toBe(403);
    expect((await post(fields, signSimulatorFields(secret(), fields, query), query)).statusCode).toBe(204);
    const row = (await ctx.db.admin.query('select status, provider_call_id from calls where id = $1', [id]))
      .rows[0];
    expect(row).toEqual({ status: 'ringing', provider_call_id: 'SIMEARLY1' });
    // Once stored, the provider id alone finds it; our id cannot re-point a call that has one.
    const other = { CallSid: 'SIMOTHER', CallStatus: 'completed', CallDuration: '5' };
    expect((await post(other, signSimulatorFields(secret(), other, query))).statusCode).toBe(403);
    const again = await post(other, signSimulatorFields(secret(), other, query), query);
    expect(again.statusCode).toBe(204);
    expect(await callRow(id)).toMatchObject({ status: 'ringing' });
  });
});
