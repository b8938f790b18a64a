import { afterEach, describe, expect, it } from 'vitest';
import type { MissedCallToReturn } from '#domain/calls/incoming-call.ts';
import { insertContact } from '../../test/contact-factory.ts';
import { placeCallAs, waitFor, openBrowserOf } from '../../test/calls-test-kit.ts';
import {
  allowUnknownLocalTime,
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';

/*
 * Missed calls to return (decision 028), on the simulator through the real routes and PostgreSQL: a number that
 * called and was missed stays on the rep's list, once however often it called, until the rep calls it back, talks
 * to it on a later call, or marks it done.
 */

let ctx: TestContext;
let rep: Session;
afterEach(() => ctx.close());

async function setUp() {
  // 25 s of ringing pass in half a second.
  ctx = await createTestApp({ telephony: { provider: 'simulator', timeScale: 0.02, timeoutMs: 300 } });
  // 11 am in Denver: within calling hours, for calling back.
  ctx.clock.set(new Date('2026-11-21T18:00:00Z'));
  rep = await createAccount(ctx, 'user');
  await allowUnknownLocalTime(ctx.app, rep);
  // The rep has the app open: calls coming in ring their browser.
  await openBrowserOf(ctx.app, rep.userId);
  expect(
    (await send('POST', '/api/caller-ids', { number: '(303) 555-0101', isDefault: true })).statusCode,
  ).toBe(201);
}
const send = (method: 'GET' | 'POST', url: string, payload?: object, who = rep) =>
  ctx.app.inject({ method, url, headers: asCookie(who), ...(payload !== undefined && { payload }) });
const missedList = async (who = rep) =>
  (await send('GET', '/api/calls/missed', undefined, who)).json<{ missed: MissedCallToReturn[] }>().missed;
const statusOf = async (id: string) =>
  (await ctx.db.admin.query<{ status: string }>('select status from calls where id = $1', [id])).rows[0]
    ?.status;

/** Someone calls and nobody answers; resolves once the call is missed (and its voicemail stored, if one is left). */
async function missedCall(from: string, voicemailSeconds = 0) {
  expect((await send('POST', '/api/calls/simulate-incoming', { from, voicemailSeconds })).statusCode).toBe(
    202,
  );
  const row = await waitFor(
    async () =>
      (
        await ctx.db.admin.query<{ id: string; status: string; voicemail: boolean }>(
          `select c.id, c.status, exists (select 1 from recordings r where r.call_id = c.id) as voicemail
           from calls c where c.direction = 'inbound' order by c.created_at desc limit 1`,
        )
      ).rows[0],
    (r) =>
      r !== undefined && ['no-answer', 'busy'].includes(r.status) && (voicemailSeconds === 0 || r.voicemail),
    8000,
  );
  // Later calls start later, as in life.
  ctx.clock.advance(60_000);
  return row!.id;
}

describe('missed calls to return', () => {
  it('lists each number once with its count, contact and voicemail; calling back takes it off', async () => {
    await setUp();
    const ada = await insertContact(ctx.app, rep, {
      firstName: 'Ada',
      lastName: 'Byron',
      company: 'Engines',
      phone: '(720) 555-0177',
    });
    await missedCall('(720) 555-0177', 2);
    // The newest call left no message: the line still plays the one left before.
    const newest = await missedCall('(720) 555-0177');
    const stranger = await missedCall('(212) 555-0142');

    const list = await missedList();
    expect(list.map((m) => [m.from, m.missed, m.contact?.name ?? null])).toEqual([
      ['+12125550142', 1, null],
      ['+17205550177', 2, 'Ada Byron'],
    ]);
    const adaLine = list[1]!;
    expect(adaLine).toMatchObject({ callId: newest, contact: { id: ada.id, company: 'Engines' } });
    expect(adaLine.voicemail).toMatchObject({ durationSeconds: 2 });
    expect((await send('GET', adaLine.voicemail!.url)).statusCode).toBe(200);
    expect(list[0]).toMatchObject({ callId: stranger, voicemail: null });

    // Another user sees none of it, and cannot mark it done.
    const other = await createAccount(ctx, 'user');
    expect(await missedList(other)).toEqual([]);
    expect((await send('POST', `/api/calls/${stranger}/missed/done`, undefined, other)).statusCode).toBe(404);

    // The rep calls Ada back: her line goes.
    const back = await placeCallAs(ctx.app, rep, { contactId: ada.id });
    expect(back.statusCode, back.body).toBe(201);
    expect((await missedList()).map((m) => m.from)).toEqual(['+12125550142']);
  });

  it('marks a number done, with all its missed calls; a later missed call brings it back', async () => {
    await setUp();
    await missedCall('(212) 555-0142');
    const second = await missedCall('(212) 555-0142');
    expect((await send('POST', `/api/calls/${second}/missed/done`)).statusCode).toBe(204);
    expect(await missedList()).toEqual([]);
    const again = await send('POST', `/api/calls/${second}/missed/done`);
    expect([again.statusCode, again.json<{ message: string }>().message]).toEqual([
      404,
      'No missed call to return',
    ]);

    const third = await missedCall('(212) 555-0142');
    expect(await missedList()).toEqual([expect.objectContaining({ callId: third, missed: 1 })]);
  });

  it('takes a number off once a later call from it is answered', async () => {
    await setUp();
    await missedCall('(212) 555-0142');
    expect(await missedList()).toHaveLength(1);
    expect((await send('POST', '/api/calls/simulate-incoming', { from: '(212) 555-0142' })).statusCode).toBe(
      202,
    );
    const [ringing] = (await send('GET', '/api/calls/incoming')).json<{ calls: { call: { id: string } }[] }>()
      .calls;
    expect((await send('POST', `/api/calls/${ringing!.call.id}/answer`)).statusCode).toBe(204);
    expect(await statusOf(ringing!.call.id)).toBe('in-progress');
    expect(await missedList()).toEqual([]);
  });

  it('forgets missed calls older than two weeks', async () => {
    await setUp();
    await missedCall('(212) 555-0142');
    ctx.clock.advance(15 * 86_400_000);
    expect(await missedList()).toEqual([]);
  });
});
