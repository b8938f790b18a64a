import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HUBSPOT_CALL_OUTCOMES, type HubSpotConnection } from '#domain/hubspot/hubspot.ts';
import { insertContact } from '../../test/contact-factory.ts';
import { startFakeHubspot, type FakeHubspot } from '../../test/fake-hubspot.ts';
import {
  asCookie,
  buildSecondInstance,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';

/*
 * HubSpot (decision 036) through the real routes, job queue and PostgreSQL, against a local HubSpot that answers as
 * its CRM v3 API documents: connect with a private app's token, import every page of contacts through the import,
 * log each saved outcome as a call on the matching HubSpot contact (made when none matches, if chosen), HubSpot's
 * refusals in its words, rate limits tried again, disconnect.
 */

let ctx: TestContext;
let rep: Session;
let hubspot: FakeHubspot;
beforeEach(async () => {
  hubspot = await startFakeHubspot();
  ctx = await createTestApp({ hubspotApiUrl: hubspot.url });
  rep = await createAccount(ctx, 'user');
});
afterEach(async () => {
  await ctx.close();
  await hubspot.close();
});

const send = (
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
  who = rep,
) => ctx.app.inject({ method, url, headers: asCookie(who), ...(payload && { payload }) });
const state = async (who = rep) =>
  (await send('GET', '/api/hubspot', undefined, who)).json<{ hubspot: HubSpotConnection | null }>().hubspot;
const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000) => {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};
const connect = async (choices: object = {}) => {
  const made = await send('PUT', '/api/hubspot', { token: hubspot.token, ...choices });
  expect(made.statusCode, made.body).toBe(200);
  return made.json<{ hubspot: HubSpotConnection }>().hubspot;
};

describe('HubSpot', () => {
  it('connects with a token HubSpot accepts, refuses one it does not in its words, never shows the token', async () => {
    const refused = await send('PUT', '/api/hubspot', { token: 'pat-na1-wrong' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues[0]).toEqual({
      path: 'token',
      message:
        'HubSpot refused this token. HubSpot answered 401: Authentication credentials not found. This API supports OAuth 2.0 authentication.',
    });
    expect(await state()).toBeNull();

    const connected = await connect();
    expect(connected).toMatchObject({
      portalId: '24680135',
      accountDomain: 'app.hubspot.com',
      logCalls: true,
      createMissing: false,
      importStatus: null,
      callsLogged: 0,
      lastError: null,
    });
    expect((await send('GET', '/api/hubspot')).body).not.toContain(hubspot.token);
    const { rows } = await ctx.db.admin.query('select token_sealed from hubspot_connections');
    expect(rows[0].token_sealed).not.toContain(hubspot.token);
    // Another user sees their own (none).
    expect(await state(await createAccount(ctx, 'user'))).toBeNull();
    expect((await send('DELETE', '/api/hubspot')).statusCode).toBe(204);
    expect(await state()).toBeNull();
  });

  it('imports every page of HubSpot contacts through the import: duplicates skipped, rows without a way to reach them skipped', async () => {
    await insertContact(ctx.app, rep, { firstName: 'Existing', email: 'lead7@buyer.example' });
    hubspot.addContacts(
      Array.from({ length: 250 }, (_, i) => ({
        firstname: `Lead${i}`,
        lastname: 'Hub',
        email: i === 43 ? '' : `lead${i}@buyer.example`,
        phone: i % 2 === 0 ? `(303) 555-${String(1000 + i).slice(-4)}` : '',
        company: 'Spot Inc',
        jobtitle: 'Buyer',
      })),
    );
    hubspot.addContacts([{ firstname: 'Mobile', lastname: 'Only', mobilephone: '+13035559999' }]);
    await connect();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => send('POST', '/api/hubspot/import', { duplicates: 'skip' })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([202, 409, 409, 409, 409]);
    const done = await until(state, (s) => s?.importStatus !== 'running');
    expect(done).toMatchObject({
      importStatus: 'done',
      importSummary: '251 HubSpot contacts: 249 new, 0 updated, 2 skipped.',
    });
    // Three pages of 100 were read.
    expect(hubspot.requests.filter((r) => r.path === '/crm/v3/objects/contacts')).toHaveLength(3);
    const { rows } = await ctx.db.admin.query<{ n: number }>(
      `select count(*)::int as n from contacts where user_id = $1`,
      [rep.userId],
    );
    expect(rows[0]!.n).toBe(250);
    const mobile = await ctx.db.admin.query(
      `select phone_e164, title from contacts where first_name = 'Mobile'`,
    );
    expect(mobile.rows).toEqual([{ phone_e164: '+13035559999', title: null }]);
    const history = await ctx.db.admin.query(`select file_name, format, status from contact_imports`);
    expect(history.rows).toEqual([
      { file_name: 'HubSpot account 24680135', format: 'hubspot', status: 'done' },
    ]);
  });

  it('logs each saved outcome as a call on the HubSpot contact with that e-mail or phone, once', async () => {
    hubspot.addContacts([{ firstname: 'Ada', lastname: 'Byron', email: 'ada@engines.example' }]);
    const hubspotAda = hubspot.contacts[0]!.id;
    await connect();
    const ada = await insertContact(ctx.app, rep, {
      firstName: 'Ada',
      lastName: 'Byron',
      email: 'Ada@Engines.example',
    });
    const saved = await send('POST', '/api/dispositions', {
      contactId: ada.id,
      disposition: 'voicemail',
      notes: 'Left a message about the demo',
    });
    expect(saved.statusCode, saved.body).toBe(201);
    await until(state, (s) => s?.callsLogged === 1);
    expect(hubspot.calls).toHaveLength(1);
    expect(hubspot.calls[0]).toMatchObject({
      properties: {
        hs_call_title: 'Call with Ada Byron: Voicemail',
        hs_call_body: 'Outcome: Voicemail\n\nLeft a message about the demo',
        hs_call_disposition: HUBSPOT_CALL_OUTCOMES.leftVoicemail,
        hs_call_direction: 'OUTBOUND',
        hs_call_status: 'COMPLETED',
      },
      associations: [
        {
          to: { id: hubspotAda },
          types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 194 }],
        },
      ],
    });
    // The job run again (a retry after a crash) finds it logged.
    const { rows } = await ctx.db.admin.query<{ id: string }>(`select id from call_dispositions`);
    await ctx.db.admin.query(
      `select graphile_worker.add_job('hubspot-log-call', json_build_object('dispositionId', $1::text, 'userId', $2::text))`,
      [rows[0]!.id, rep.userId],
    );
    await new Promise((r) => setTimeout(r, 1500));
    expect(hubspot.calls).toHaveLength(1);
  });

  it('says why a call was not logged, makes the contact when chosen, waits out a rate limit, records a revoked token', async () => {
    await connect();
    const bo = await insertContact(ctx.app, rep, {
      firstName: 'Bo',
      lastName: 'Nobody',
      phone: '(720) 555-0142',
    });
    expect(
      (await send('POST', '/api/dispositions', { contactId: bo.id, disposition: 'busy' })).statusCode,
    ).toBe(201);
    const told = await until(state, (s) => s?.lastError !== null);
    expect(told!.lastError).toBe(
      'A call with Bo Nobody was not logged: no HubSpot contact has its e-mail or phone number.',
    );
    expect(hubspot.calls).toHaveLength(0);

    expect((await send('PATCH', '/api/hubspot', { createMissing: true })).statusCode).toBe(200);
    hubspot.failNext.push(429);
    expect(
      (await send('POST', '/api/dispositions', { contactId: bo.id, disposition: 'answered' })).statusCode,
    ).toBe(201);
    const limited = await until(state, (s) => s?.lastError?.includes('429') ?? false);
    expect(limited!.lastError).toBe(
      'HubSpot answered 429: You have reached your ten_secondly_rolling limit.',
    );
    // Tried again by the queue: made the contact, then logged the call on it.
    const logged = await until(state, (s) => s?.callsLogged === 1);
    expect(logged!.lastError).toBeNull();
    expect(hubspot.contacts).toHaveLength(1);
    expect(hubspot.contacts[0]!.properties).toMatchObject({
      firstname: 'Bo',
      lastname: 'Nobody',
      phone: '+17205550142',
      email: bo.email,
    });
    expect(hubspot.calls).toHaveLength(1);
    expect(hubspot.calls[0]!.properties.hs_call_disposition).toBe(HUBSPOT_CALL_OUTCOMES.connected);

    hubspot.token = 'pat-na1-rotated';
    expect(
      (await send('POST', '/api/dispositions', { contactId: bo.id, disposition: 'qualified' })).statusCode,
    ).toBe(201);
    const revoked = await until(state, (s) => s?.lastError?.includes('401') ?? false);
    expect(revoked!.lastError).toMatch(/^HubSpot answered 401: Authentication credentials not found/);
    expect(revoked!.callsLogged).toBe(1);
    // Told once: nothing reaches HubSpot until a new token is connected.
    const notices = (await send('GET', '/api/notifications')).json<{
      notifications: { kind: string; title: string; link: string }[];
    }>().notifications;
    expect(notices.map((n) => [n.kind, n.title, n.link])).toEqual([
      ['integration-failed', 'HubSpot refused the connection', '/settings?tab=integrations'],
    ]);

    // Disconnected: outcomes saved later queue nothing.
    expect((await send('DELETE', '/api/hubspot')).statusCode).toBe(204);
    expect(
      (await send('POST', '/api/dispositions', { contactId: bo.id, disposition: 'not-interested' }))
        .statusCode,
    ).toBe(201);
    const { rows } = await ctx.db.admin.query<{ n: number }>(
      `select count(*)::int as n from graphile_worker.jobs where task_identifier = 'hubspot-log-call'`,
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('two instances on one database log each outcome once, and start one import between them', async () => {
    const second = await buildSecondInstance(ctx, { hubspotApiUrl: hubspot.url });
    try {
      hubspot.addContacts([{ firstname: 'Ada', lastname: 'Byron', email: 'ada@engines.example' }]);
      await connect();
      const ada = await insertContact(ctx.app, rep, { firstName: 'Ada', email: 'ada@engines.example' });
      const on = (k: number) => (k % 2 === 0 ? ctx.app : second);
      const saves = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          on(i).inject({
            method: 'POST',
            url: '/api/dispositions',
            headers: asCookie(rep),
            payload: { contactId: ada.id, disposition: 'answered', notes: `Call ${i}` },
          }),
        ),
      );
      expect(saves.map((s) => s.statusCode)).toEqual(Array(20).fill(201));
      const imports = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          on(i).inject({ method: 'POST', url: '/api/hubspot/import', headers: asCookie(rep), payload: {} }),
        ),
      );
      expect(imports.map((a) => a.statusCode).sort()).toEqual([202, 409, 409, 409, 409, 409]);
      await until(state, (s) => s?.callsLogged === 20 && s.importStatus === 'done');
      await new Promise((r) => setTimeout(r, 500));
      expect(hubspot.calls).toHaveLength(20);
      expect(new Set(hubspot.calls.map((c) => c.properties.hs_call_body)).size).toBe(20);
    } finally {
      await second.close();
    }
  });

  it('refuses an import or a change without a connection', async () => {
    expect((await send('POST', '/api/hubspot/import', {})).statusCode).toBe(404);
    expect((await send('PATCH', '/api/hubspot', { logCalls: false })).statusCode).toBe(404);
    expect((await send('PUT', '/api/hubspot', { token: '' })).statusCode).toBe(400);
  });
});
