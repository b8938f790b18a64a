import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Call } from '#domain/calls/call.schema.ts';
import type { VoicemailDrop } from '#domain/recordings/voicemail-drop.ts';
import { readWavInfo } from '#domain/recordings/wav.ts';
import { insertContact } from '../../test/contact-factory.ts';
import { placeCallAs, toneWav, waitFor } from '../../test/calls-test-kit.ts';
import {
  asCookie,
  buildSecondInstance,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';
import { deleteDueFiles } from '../recordings/public.ts';

/*
 * Voicemail drop on the simulator (decision 031), through the real routes, consent gate, file store and
 * PostgreSQL: a rep records messages, and leaves one in one click on a call a machine answered, where the contact's
 * express consent allows a prerecorded message; the call ends once the message has played.
 */

let ctx: TestContext;
let rep: Session;
afterEach(() => ctx.close());

const NO_CONSENT =
  'No voicemail drop: a prerecorded message needs the contact’s prior express consent (47 CFR 64.1200(a)(2) and (a)(3)). Record their consent on the contact first.';

async function setUp() {
  // A tenth of real time: a machine answers at 0.2 s, its greeting is over at 0.45 s, it records for 3 s.
  ctx = await createTestApp({
    telephony: { provider: 'simulator', timeScale: 0.1, timeoutMs: 300, bulkSpacingMs: 50 },
  });
  // Noon in Texas: within calling hours.
  ctx.clock.set(new Date('2026-11-21T18:00:00Z'));
  rep = await createAccount(ctx, 'user');
}

const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, as = rep) =>
  ctx.app.inject({ method, url, headers: asCookie(as), ...(payload !== undefined && { payload }) });
const upload = (name: string, body: Uint8Array | string, contentType = 'audio/wav', as = rep) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/voicemail/drops?name=${encodeURIComponent(name)}`,
    headers: { ...asCookie(as), 'content-type': contentType },
    payload: typeof body === 'string' ? body : Buffer.from(body),
  });
const dropsOf = (response: { json: <T>() => T }) => response.json<{ drops: VoicemailDrop[] }>().drops;
const callOf = async (id: string) => (await send('GET', `/api/calls/${id}`)).json<{ call: Call }>().call;
const dispositionsOf = async (callId: string) =>
  (
    await ctx.db.admin.query<{ disposition: string; notes: string | null; queue_id: string | null }>(
      'select disposition, notes, queue_id from call_dispositions where call_id = $1',
      [callId],
    )
  ).rows;
const consentEntries = async (contactId: string) =>
  (await send('GET', `/api/contacts/${contactId}/consent/record`)).json<{
    entries: { channel: string; outcome: string; reason: string | null }[];
  }>().entries;

/** A Texas contact whose number a machine answers (it ends in 3), with or without their express consent. */
async function machineContact(consent: boolean) {
  const contact = await insertContact(ctx.app, rep, {
    firstName: 'Max',
    lastName: 'Vance',
    phone: '(512) 555-0173',
  });
  if (consent) {
    const given = await send('POST', `/api/contacts/${contact.id}/consent/express`, {
      givenOn: '2026-10-01',
      source: 'Web form',
    });
    expect(given.statusCode, given.body).toBe(201);
  }
  return contact;
}

/** Calls the contact and waits until answering-machine detection has said a machine answered. */
async function callReachingMachine(contactId: string) {
  const placed = await placeCallAs(ctx.app, rep, { contactId });
  expect(placed.statusCode, placed.body).toBe(201);
  const { id } = placed.json<{ call: Call }>().call;
  const call = await waitFor(
    () => callOf(id),
    (c) => c.answeredBy === 'machine',
    5000,
  );
  expect(call).toMatchObject({ status: 'in-progress', answeredBy: 'machine' });
  return call;
}

describe('voicemail-drop messages', () => {
  it('records, lists, plays, renames and deletes a rep’s messages; another user sees none of them', async () => {
    await setUp();
    const saved = await upload('First touch', toneWav(4));
    expect(saved.statusCode, saved.body).toBe(201);
    const [first] = dropsOf(saved);
    expect(first).toMatchObject({ name: 'First touch', recording: { durationSeconds: 4 } });
    expect(dropsOf(await upload('Follow-up', toneWav(2))).map((d) => d.name)).toEqual([
      'First touch',
      'Follow-up',
    ]);

    const audio = await send('GET', first!.recording.url);
    expect(audio.statusCode).toBe(200);
    expect(readWavInfo(audio.rawPayload)?.durationSeconds).toBe(4);

    const renamed = await send('PATCH', `/api/voicemail/drops/${first!.id}`, { name: '  Intro  ' });
    expect(dropsOf(renamed).map((d) => d.name)).toEqual(['Follow-up', 'Intro']);

    const other = await createAccount(ctx, 'user');
    expect(dropsOf(await send('GET', '/api/voicemail/drops', undefined, other))).toEqual([]);
    expect((await send('GET', first!.recording.url, undefined, other)).statusCode).toBe(404);
    expect((await send('DELETE', `/api/voicemail/drops/${first!.id}`, undefined, other)).statusCode).toBe(
      404,
    );
    expect((await send('PATCH', `/api/voicemail/drops/${first!.id}`, { name: 'x' }, other)).statusCode).toBe(
      404,
    );

    const [row] = (
      await ctx.db.admin.query<{ storage_key: string }>('select storage_key from recordings where id = $1', [
        first!.recording.id,
      ])
    ).rows;
    const file = path.join(ctx.filesDir, ...row!.storage_key.split('/'));
    expect(existsSync(file)).toBe(true);
    const deleted = await send('DELETE', `/api/voicemail/drops/${first!.id}`);
    expect(dropsOf(deleted).map((d) => d.name)).toEqual(['Follow-up']);
    await deleteDueFiles(ctx.app.ctx);
    expect(existsSync(file)).toBe(false);
    expect((await send('GET', first!.recording.url)).statusCode).toBe(404);
  });

  it.each([
    ['not a WAV', 'hello', 'text/plain', 415, 'The voicemail message must be a WAV recording'],
    ['a broken WAV', 'RIFF....WAVE', 'audio/wav', 400, 'The voicemail message must be a WAV recording'],
    ['an empty recording', toneWav(0), 'audio/wav', 400, 'The recording is empty'],
    ['over two minutes', toneWav(125), 'audio/wav', 400, 'A voicemail message can be at most 120 seconds'],
  ])('refuses %s', async (_what, body, type, status, message) => {
    await setUp();
    const refused = await upload('Intro', body, type);
    expect(refused.statusCode).toBe(status);
    expect(refused.json()).toMatchObject({ message });
    expect(dropsOf(await send('GET', '/api/voicemail/drops'))).toEqual([]);
  });

  it('refuses a nameless message, and an eleventh, even when uploads race', async () => {
    await setUp();
    expect((await upload('   ', toneWav(1))).json()).toMatchObject({
      issues: [{ message: 'Name the message' }],
    });
    const results = await Promise.all(
      Array.from({ length: 14 }, (_, i) => upload(`Message ${i}`, toneWav(1))),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(10);
    const refused = results.filter((r) => r.statusCode !== 201);
    expect(refused.map((r) => [r.statusCode, r.json<{ message: string }>().message])).toEqual(
      Array.from({ length: 4 }, () => [409, 'You can keep up to 10 voicemail messages. Delete one first.']),
    );
    expect(dropsOf(await send('GET', '/api/voicemail/drops'))).toHaveLength(10);
    // The refused uploads' files do not stay behind.
    await deleteDueFiles(ctx.app.ctx);
    const keys = (await ctx.db.admin.query('select count(*)::int as n from recordings')).rows[0] as {
      n: number;
    };
    expect(keys.n).toBe(10);
  });
});

describe('dropping a voicemail on a call', () => {
  it('leaves the message on a machine in one click: the rep is free, the contact gets a voicemail outcome, the call ends when it has played', async () => {
    await setUp();
    const [drop] = dropsOf(await upload('Intro', toneWav(2)));
    const contact = await machineContact(true);
    const call = await callReachingMachine(contact.id);

    const droppedAt = Date.now();
    const dropped = await send('POST', `/api/calls/${call.id}/voicemail-drop`, { dropId: drop!.id });
    expect(dropped.statusCode, dropped.body).toBe(200);
    expect(dropped.json<{ call: Call }>().call.voicemailLeft).toMatchObject({ name: 'Intro' });
    expect(await dispositionsOf(call.id)).toEqual([
      { disposition: 'voicemail', notes: 'Voicemail left: “Intro” (0:02)', queue_id: null },
    ]);
    const [latest] = await consentEntries(contact.id);
    expect(latest).toMatchObject({ channel: 'prerecorded', outcome: 'allowed' });

    // The message plays (2 s at a tenth of real time), then the call ends, well before the machine would have
    // stopped recording on its own (3 s after it answered).
    const ended = await waitFor(
      () => callOf(call.id),
      (c) => c.status === 'completed',
      3000,
    );
    expect(ended.status).toBe('completed');
    expect(Date.now() - droppedAt).toBeLessThan(2000);

    const again = await send('POST', `/api/calls/${call.id}/voicemail-drop`, { dropId: drop!.id });
    expect(again.statusCode).toBe(409);
  });

  it('reaches the call on the instance that placed it when the drop comes to another one', async () => {
    await setUp();
    const [drop] = dropsOf(await upload('Intro', toneWav(2)));
    const contact = await machineContact(true);
    const call = await callReachingMachine(contact.id);
    const second = await buildSecondInstance(ctx);
    try {
      const droppedAt = Date.now();
      const dropped = await second.inject({
        method: 'POST',
        url: `/api/calls/${call.id}/voicemail-drop`,
        headers: asCookie(rep),
        payload: { dropId: drop!.id },
      });
      expect(dropped.statusCode, dropped.body).toBe(200);
      const ended = await waitFor(
        () => callOf(call.id),
        (c) => c.status === 'completed',
        3000,
      );
      expect(ended.status).toBe('completed');
      // Played by the first instance's simulated call (0.2 s), not left to the machine's own 3 s.
      expect(Date.now() - droppedAt).toBeLessThan(2000);
    } finally {
      await second.close();
    }
  });

  it('refuses a prerecorded message to a contact who gave no express consent, and says why', async () => {
    await setUp();
    const [drop] = dropsOf(await upload('Intro', toneWav(2)));
    const contact = await machineContact(false);
    const call = await callReachingMachine(contact.id);

    const refused = await send('POST', `/api/calls/${call.id}/voicemail-drop`, { dropId: drop!.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'CONSENT_REFUSED', message: NO_CONSENT });
    expect((await callOf(call.id)).voicemailLeft).toBeNull();
    expect(await dispositionsOf(call.id)).toEqual([]);
    const [latest] = await consentEntries(contact.id);
    expect(latest).toMatchObject({ channel: 'prerecorded', outcome: 'refused', reason: NO_CONSENT });
  });

  it('takes one drop of fifty sent at once', async () => {
    await setUp();
    const [drop] = dropsOf(await upload('Intro', toneWav(2)));
    const contact = await machineContact(true);
    const call = await callReachingMachine(contact.id);
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        send('POST', `/api/calls/${call.id}/voicemail-drop`, { dropId: drop!.id }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(
      new Set(results.filter((r) => r.statusCode !== 200).map((r) => r.json<{ message: string }>().message)),
    ).toEqual(new Set(['A voicemail was already left on this call']));
    expect(await dispositionsOf(call.id)).toHaveLength(1);
  });

  it('refuses a call not answered yet, another user’s call or message, and an unknown message', async () => {
    await setUp();
    const [drop] = dropsOf(await upload('Intro', toneWav(2)));
    const contact = await machineContact(true);
    const placed = await placeCallAs(ctx.app, rep, { contactId: contact.id });
    const { id } = placed.json<{ call: Call }>().call;
    const early = await send('POST', `/api/calls/${id}/voicemail-drop`, { dropId: drop!.id });
    expect([early.statusCode, early.json<{ message: string }>().message]).toEqual([
      409,
      'Only an answered call can take a voicemail drop',
    ]);
    await waitFor(
      () => callOf(id),
      (c) => c.status === 'in-progress',
    );

    const other = await createAccount(ctx, 'user');
    const [theirs] = dropsOf(await upload('Theirs', toneWav(1), 'audio/wav', other));
    expect(
      (await send('POST', `/api/calls/${id}/voicemail-drop`, { dropId: drop!.id }, other)).statusCode,
    ).toBe(404);
    const foreign = await send('POST', `/api/calls/${id}/voicemail-drop`, { dropId: theirs!.id });
    expect([foreign.statusCode, foreign.json<{ message: string }>().message]).toEqual([
      404,
      'Voicemail message not found',
    ]);
    expect((await send('POST', `/api/calls/${id}/voicemail-drop`, { dropId: 'not-an-id' })).statusCode).toBe(
      400,
    );
    expect((await callOf(id)).voicemailLeft).toBeNull();
  });

  it('completes the contact in the queue the call was placed from', async () => {
    await setUp();
    const [drop] = dropsOf(await upload('Intro', toneWav(1)));
    const contact = await machineContact(true);
    const queue = await send('POST', '/api/queues', {
      name: 'Texas leads',
      selection: { ids: [contact.id] },
    });
    expect(queue.statusCode, queue.body).toBe(201);
    const queueId = queue.json<{ queue: { id: string } }>().queue.id;

    const placed = await placeCallAs(ctx.app, rep, { contactId: contact.id, queueId });
    const { id } = placed.json<{ call: Call }>().call;
    await waitFor(
      () => callOf(id),
      (c) => c.answeredBy === 'machine',
      5000,
    );
    expect((await send('POST', `/api/calls/${id}/voicemail-drop`, { dropId: drop!.id })).statusCode).toBe(
      200,
    );
    expect(await dispositionsOf(id)).toEqual([
      expect.objectContaining({ disposition: 'voicemail', queue_id: queueId }),
    ]);
    const members = await ctx.db.admin.query<{ completed_at: Date | null }>(
      'select completed_at from queue_members where queue_id = $1',
      [queueId],
    );
    expect(members.rows[0]?.completed_at).not.toBeNull();
  });
});
