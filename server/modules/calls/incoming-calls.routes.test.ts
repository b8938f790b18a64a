import { afterEach, describe, expect, it } from 'vitest';
import type { IncomingCall } from '#domain/calls/incoming-call.ts';
import { insertContact } from '../../test/contact-factory.ts';
import { waitFor, openBrowserOf } from '../../test/calls-test-kit.ts';
import { withActor } from '../../db/database.ts';
import { isBrowserOpen } from '../../realtime/browser-presence.repository.ts';
import {
  allowUnknownLocalTime,
  asCookie,
  buildSecondInstance,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';

/*
 * Calls coming in on the simulator (decision 028), through the real routes and PostgreSQL: 'Simulate incoming call'
 * drives the same signed webhook a provider calls, the call rings the user's browser phones (GET incoming, in every
 * tab), the first device to answer takes it, and one nobody answers is missed with a notification.
 */

let ctx: TestContext;
let rep: Session;
let closeBrowser: () => void;
afterEach(() => ctx.close());

const OUR_NUMBER = '+13035550101';

async function setUp(timeScale: number) {
  ctx = await createTestApp({ telephony: { provider: 'simulator', timeScale, timeoutMs: 300 } });
  rep = await createAccount(ctx, 'user');
  await allowUnknownLocalTime(ctx.app, rep);
  // The rep has the app open: calls coming in ring their browser.
  closeBrowser = await openBrowserOf(ctx.app, rep.userId);
  expect(
    (await send('POST', '/api/caller-ids', { number: '(303) 555-0101', isDefault: true })).statusCode,
  ).toBe(201);
}

const send = (method: 'GET' | 'POST', url: string, payload?: object, who = rep) =>
  ctx.app.inject({ method, url, headers: asCookie(who), ...(payload !== undefined && { payload }) });
const ringing = async (who = rep) =>
  (await send('GET', '/api/calls/incoming', undefined, who)).json<{ calls: IncomingCall[] }>().calls;
const callRow = async (id: string) =>
  (
    await ctx.db.admin.query<{
      status: string;
      answered_at: Date | null;
      direction: string;
      user_id: string;
    }>('select status, answered_at, direction, user_id from calls where id = $1', [id])
  ).rows[0]!;

describe('incoming calls on the simulator', () => {
  it('rings with the caller’s contact, last disposition and notes; the first device to answer takes the call', async () => {
    await setUp(1);
    const ada = await insertContact(ctx.app, rep, {
      firstName: 'Ada',
      lastName: 'Byron',
      phone: '(720) 555-0177',
    });
    const saved = await send('POST', '/api/dispositions', {
      contactId: ada.id,
      disposition: 'answered',
      notes: 'Wants the annual plan quote',
    });
    expect(saved.statusCode).toBe(201);

    const simulated = await send('POST', '/api/calls/simulate-incoming', { from: '720-555-0177' });
    expect(simulated.statusCode).toBe(202);
    const [incoming, ...others] = await ringing();
    expect(others).toEqual([]);
    expect(incoming).toMatchObject({
      call: {
        direction: 'inbound',
        status: 'ringing',
        from: '+17205550177',
        to: OUR_NUMBER,
        contactId: ada.id,
      },
      contact: {
        id: ada.id,
        name: 'Ada Byron',
        lastDisposition: 'answered',
        lastNotes: 'Wants the annual plan quote',
      },
      callerPlace: 'Colorado',
    });
    const callId = incoming!.call.id;

    // Fifty tabs answer at once: one takes it, the others are told where it went.
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => send('POST', `/api/calls/${callId}/answer`)),
    );
    expect(answers.filter((a) => a.statusCode === 204)).toHaveLength(1);
    const refused = answers.filter((a) => a.statusCode !== 204);
    expect(new Set(refused.map((a) => `${a.statusCode} ${a.json().message}`))).toEqual(
      new Set(['409 This call was answered on another device']),
    );
    expect(await ringing()).toEqual([]);
    expect(await callRow(callId)).toMatchObject({ status: 'in-progress', direction: 'inbound' });

    // The rep ends it as any call; it is in the day's log and the contact's history as an incoming call.
    expect((await send('POST', `/api/calls/${callId}/hangup`)).statusCode).toBe(204);
    await waitFor(
      () => callRow(callId),
      (row) => row.status === 'completed',
      5000,
    );
    const fetched = (await send('GET', `/api/calls/${callId}`)).json<{ call: { direction: string } }>();
    expect(fetched.call.direction).toBe('inbound');
  });

  it('answered on another server instance than the one ringing, the call stays answered and ends from there', async () => {
    // 25 s of ringing pass in 2.5 s on the instance that holds the simulated call.
    await setUp(0.1);
    const second = await buildSecondInstance(ctx);
    try {
      await send('POST', '/api/calls/simulate-incoming', { from: '7205550177' });
      const [call] = await ringing();
      const callId = call!.call.id;
      const answered = await second.inject({
        method: 'POST',
        url: `/api/calls/${callId}/answer`,
        headers: asCookie(rep),
      });
      expect(answered.statusCode).toBe(204);
      // Past the ring time: the instance holding the call was told, so it is not missed.
      await new Promise((resolve) => setTimeout(resolve, 4000));
      expect(await callRow(callId)).toMatchObject({ status: 'in-progress' });
      const ended = await second.inject({
        method: 'POST',
        url: `/api/calls/${callId}/hangup`,
        headers: asCookie(rep),
      });
      expect(ended.statusCode).toBe(204);
      await waitFor(
        () => callRow(callId),
        (row) => row.status === 'completed',
        5000,
      );
    } finally {
      await second.close();
    }
  });

  it('tells an unknown caller apart, and reaches only the user who simulated it', async () => {
    await setUp(1);
    const other = await createAccount(ctx, 'user');
    expect((await send('POST', '/api/calls/simulate-incoming', { from: '+1 212 555 0199' })).statusCode).toBe(
      202,
    );
    const [call] = await ringing();
    expect(call).toMatchObject({ contact: null, call: { from: '+12125550199' }, callerPlace: 'New York' });
    expect(await ringing(other)).toEqual([]);
    // Another user can neither answer nor see it.
    expect((await send('POST', `/api/calls/${call!.call.id}/answer`, undefined, other)).statusCode).toBe(404);
  });

  it('refuses a number that is not one of the user’s and a caller number that is not one', async () => {
    await setUp(1);
    const notOurs = await send('POST', '/api/calls/simulate-incoming', {
      from: '7205550177',
      to: '(212) 555-0100',
    });
    expect(notOurs.statusCode).toBe(400);
    expect(notOurs.json().message).toBe('That number is not one of your caller IDs');
    const noNumber = await send('POST', '/api/calls/simulate-incoming', { from: '12' });
    expect(noNumber.statusCode).toBe(400);
    expect(await ringing()).toEqual([]);
  });

  it('a call nobody answers is missed once, with a notification; answering it then says it has ended', async () => {
    // 25 s of ringing pass in half a second.
    await setUp(0.02);
    const ada = await insertContact(ctx.app, rep, {
      firstName: 'Ada',
      lastName: 'Byron',
      phone: '(720) 555-0177',
    });
    await send('POST', '/api/calls/simulate-incoming', { from: '7205550177', voicemailSeconds: 0 });
    const [call] = await ringing();
    const callId = call!.call.id;
    const missed = await waitFor(
      () => callRow(callId),
      (row) => row.status === 'no-answer',
      5000,
    );
    expect(missed.answered_at).toBeNull();
    expect(await ringing()).toEqual([]);

    const answer = await send('POST', `/api/calls/${callId}/answer`);
    expect(answer.statusCode).toBe(409);
    expect(answer.json().message).toBe('This call has ended');

    const notices = (await send('GET', '/api/notifications')).json<{
      notifications: { kind: string; title: string; link: string }[];
    }>().notifications;
    expect(notices).toEqual([
      expect.objectContaining({
        kind: 'missed-call',
        title: 'Missed call from Ada Byron',
        link: `/contacts/${ada.id}`,
      }),
    ]);
  });

  it('records calls coming in when recording is on: a California caller hears the disclosure, a Texas caller not', async () => {
    await setUp(0.02);
    ctx.clock.set(new Date('2026-11-21T18:00:00Z'));
    const on = await ctx.app.inject({
      method: 'PUT',
      url: '/api/recording-settings',
      headers: asCookie(rep),
      payload: { recordCalls: true, retentionDays: 90 },
    });
    expect(on.statusCode).toBe(200);
    const comeInAndTalk = async (from: string) => {
      expect((await send('POST', '/api/calls/simulate-incoming', { from })).statusCode).toBe(202);
      const [call] = await ringing();
      const callId = call!.call.id;
      expect((await send('POST', `/api/calls/${callId}/answer`)).statusCode).toBe(204);
      // A few seconds of talk at the simulator's pace, then the rep hangs up.
      await new Promise((resolve) => setTimeout(resolve, 120));
      expect((await send('POST', `/api/calls/${callId}/hangup`)).statusCode).toBe(204);
      return (await send('GET', `/api/calls/${callId}`)).json<{
        call: { id: string; recorded: boolean; recordingDisclosure: string | null };
      }>().call;
    };
    const california = await comeInAndTalk('(415) 555-0171');
    expect(california).toMatchObject({ recorded: true, recordingDisclosure: 'This call is recorded.' });
    const texas = await comeInAndTalk('(512) 555-0171');
    expect(texas).toMatchObject({ recorded: true, recordingDisclosure: null });
    const stored = await waitFor(
      async () =>
        (
          await ctx.db.admin.query<{ call_id: string; kind: string; seconds: number }>(
            `select call_id, kind, duration_seconds as seconds from recordings order by created_at`,
          )
        ).rows,
      (rows) => rows.length === 2,
      5000,
    );
    expect(stored.map((r) => [r.kind, r.call_id]).sort()).toEqual(
      [
        ['call', california.id],
        ['call', texas.id],
      ].sort(),
    );
    expect(stored.every((r) => Number(r.seconds) > 0)).toBe(true);
  });

  it('with no browser of the user open, the call is missed at once and the caller leaves a voicemail', async () => {
    await setUp(0.02);
    closeBrowser();
    await waitFor(
      () => withActor(ctx.app.ctx.db, { kind: 'system' }, (trx) => isBrowserOpen(trx, rep.userId)),
      (open) => !open,
    );
    expect(
      (await send('POST', '/api/calls/simulate-incoming', { from: '7205550177', voicemailSeconds: 2 }))
        .statusCode,
    ).toBe(202);
    expect(await ringing()).toEqual([]);
    const { rows } = await ctx.db.admin.query<{ id: string; status: string }>(
      `select id, status from calls where direction = 'inbound'`,
    );
    expect(rows).toEqual([expect.objectContaining({ status: 'no-answer' })]);
    const notices = (await send('GET', '/api/notifications')).json<{ notifications: { kind: string }[] }>()
      .notifications;
    expect(notices.map((n) => n.kind)).toEqual(['missed-call']);
    const voicemails = await waitFor(
      async () =>
        (
          await ctx.db.admin.query(`select 1 from recordings where call_id = $1 and kind = 'voicemail'`, [
            rows[0]!.id,
          ])
        ).rowCount,
      (n) => n === 1,
      5000,
    );
    expect(voicemails).toBe(1);
  });

  it('a declined call stops ringing at once in every tab, and the caller goes to voicemail', async () => {
    // 25 s of ringing take 5 s: long enough to decline first.
    await setUp(0.2);
    await send('POST', '/api/calls/simulate-incoming', { from: '7205550177', voicemailSeconds: 2 });
    const [call] = await ringing();
    const callId = call!.call.id;
    const stranger = await createAccount(ctx, 'user');
    expect((await send('POST', `/api/calls/${callId}/decline`, undefined, stranger)).statusCode).toBe(404);

    expect((await send('POST', `/api/calls/${callId}/decline`)).statusCode).toBe(204);
    const declined = await waitFor(
      () => callRow(callId),
      (row) => row.status !== 'ringing',
      2000,
    );
    expect(declined).toMatchObject({ status: 'busy', answered_at: null });
    expect(await ringing()).toEqual([]);
    const again = await send('POST', `/api/calls/${callId}/decline`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This call has ended');
    // The caller left a message after the greeting.
    await waitFor(
      async () =>
        (
          await ctx.db.admin.query(`select 1 from recordings where call_id = $1 and kind = 'voicemail'`, [
            callId,
          ])
        ).rowCount,
      (n) => n === 1,
      5000,
    );
  });

  it('a user who turned missed-call notifications off gets none', async () => {
    await setUp(0.02);
    const settings = (await send('GET', '/api/notification-settings')).json<{ settings: object }>().settings;
    const off = await ctx.app.inject({
      method: 'PUT',
      url: '/api/notification-settings',
      headers: asCookie(rep),
      payload: { ...settings, missedCallsApp: false },
    });
    expect(off.statusCode).toBe(200);
    await send('POST', '/api/calls/simulate-incoming', { from: '7205550177' });
    const [call] = await ringing();
    await waitFor(
      () => callRow(call!.call.id),
      (row) => row.status === 'no-answer',
      5000,
    );
    const notices = (await send('GET', '/api/notifications')).json<{ notifications: object[] }>()
      .notifications;
    expect(notices).toEqual([]);
  });
});
