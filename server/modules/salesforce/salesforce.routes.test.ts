import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SalesforceResponse } from '#domain/salesforce/salesforce.ts';
import { insertContact } from '../../test/contact-factory.ts';
import { startFakeSalesforce, type FakeSalesforce } from '../../test/fake-salesforce.ts';
import {
  asCookie,
  buildSecondInstance,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';
import { TEST_PUBLIC_URL } from '../../test/test-constants.ts';

/*
 * Salesforce (decision 037) through the real routes, job queue and PostgreSQL, against a local org and login host
 * that answer as Salesforce's OAuth 2.0 web server flow and REST sObjects document: connect with PKCE (the state
 * bound to the user, used once), refusals in Salesforce's words, Leads and Contacts imported page by page through the
 * import, each saved outcome a completed Task on the matching Contact or Lead, the access token refreshed, the org's
 * request limit waited out, a revoked connection told once, disconnect revoking the token.
 */

let ctx: TestContext;
let rep: Session;
let sf: FakeSalesforce;
beforeEach(async () => {
  sf = await startFakeSalesforce(`${TEST_PUBLIC_URL}/api/salesforce/callback`);
  ctx = await createTestApp({
    salesforce: { clientId: sf.clientId, clientSecret: sf.clientSecret, loginUrl: sf.url },
  });
  rep = await createAccount(ctx, 'user');
});
afterEach(async () => {
  await ctx.close();
  await sf.close();
});

const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, who = rep) =>
  ctx.app.inject({ method, url, headers: asCookie(who), ...(payload && { payload }) });
const read = async (who = rep) =>
  (await send('GET', '/api/salesforce', undefined, who)).json<SalesforceResponse>();
const state = async () => (await read()).salesforce;
const until = async <T>(get: () => Promise<T>, done: (value: T) => boolean, ms = 20_000) => {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await get();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** What the browser does: starts the sign-in, is shown Salesforce's page, clicks Allow or Deny, comes back. */
async function signIn(choice: 'Allow' | 'Deny', options: { logCalls?: boolean; who?: Session } = {}) {
  const started = await send('POST', '/api/salesforce/authorize', { logCalls: options.logCalls ?? true });
  expect(started.statusCode, started.body).toBe(200);
  const page = await (await fetch(started.json<{ url: string }>().url)).text();
  const link = new RegExp(`href="([^"]+)">${choice}<`).exec(page)![1]!;
  const decided = await fetch(`${sf.url}${link}`, { redirect: 'manual' });
  const callback = decided.headers.get('location')!;
  expect(callback.startsWith(`${TEST_PUBLIC_URL}/api/salesforce/callback?`)).toBe(true);
  const path = callback.slice(TEST_PUBLIC_URL.length);
  return { path, back: await send('GET', path, undefined, options.who ?? rep) };
}
const outcomeOf = (back: { statusCode: number; headers: Record<string, unknown> }) => {
  expect(back.statusCode).toBe(302);
  const location = new URL(String(back.headers.location), TEST_PUBLIC_URL);
  expect(location.pathname).toBe('/settings');
  expect(location.searchParams.get('tab')).toBe('integrations');
  return location.searchParams.get('salesforce') ?? location.searchParams.get('salesforceError');
};
const connect = async () => {
  const { back } = await signIn('Allow');
  expect(outcomeOf(back)).toBe('connected');
  return (await state())!;
};

describe('Salesforce', () => {
  it('connects through OAuth with PKCE as the user who started it, once, and keeps the tokens sealed', async () => {
    expect(await read()).toEqual({
      configured: true,
      redirectUri: `${TEST_PUBLIC_URL}/api/salesforce/callback`,
      salesforce: null,
    });
    const started = await send('POST', '/api/salesforce/authorize', {});
    const url = new URL(started.json<{ url: string }>().url);
    expect(url.origin + url.pathname).toBe(`${sf.url}/services/oauth2/authorize`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{32}$/);

    // Denied at Salesforce: nothing connected, Salesforce's words.
    expect(outcomeOf((await signIn('Deny')).back)).toBe(
      'Salesforce did not connect: end-user denied authorization.',
    );
    // Someone else cannot finish a sign-in another user started (nor connect their org to them).
    const other = await createAccount(ctx, 'user');
    expect(outcomeOf((await signIn('Allow', { who: other })).back)).toBe(
      'This Salesforce sign-in expired, was already used or was started by someone else; connect again.',
    );
    expect((await read(other)).salesforce).toBeNull();

    const { path, back } = await signIn('Allow');
    expect(outcomeOf(back)).toBe('connected');
    expect(await state()).toMatchObject({
      username: 'rep@acme.example',
      displayName: 'Riley Rep',
      organizationId: sf.organizationId,
      instanceUrl: sf.url,
      logCalls: true,
      importStatus: null,
      callsLogged: 0,
      lastError: null,
    });
    // The same answer replayed finds its sign-in used.
    expect(outcomeOf(await send('GET', path))).toMatch(/already used/);
    const { rows } = await ctx.db.admin.query<Record<string, string>>(
      'select access_token_sealed, refresh_token_sealed from salesforce_connections',
    );
    const tokenRequests = sf.requests.filter((r) => r.path === '/services/oauth2/token');
    expect(tokenRequests).toHaveLength(1); // neither the refused nor the other user's code was exchanged
    expect(rows[0]!.access_token_sealed).not.toMatch(/^00D!/);
    expect(rows[0]!.refresh_token_sealed).not.toMatch(/^5Aep/);
    expect((await send('GET', '/api/salesforce')).body).not.toMatch(/00D!|5Aep/);

    // Disconnect forgets the tokens here and revokes them at Salesforce.
    expect((await send('DELETE', '/api/salesforce')).statusCode).toBe(204);
    expect(await state()).toBeNull();
    await until(
      async () => sf.revoked.length,
      (n) => n === 1,
    );
    expect(sf.revoked[0]).toMatch(/^5Aep/);
  });

  it('finishes a sign-in once when its answer arrives ten times at once', async () => {
    const started = await send('POST', '/api/salesforce/authorize', {});
    const page = await (await fetch(started.json<{ url: string }>().url)).text();
    const allow = /href="([^"]+)">Allow</.exec(page)![1]!;
    const callback = (await fetch(`${sf.url}${allow}`, { redirect: 'manual' })).headers.get('location')!;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => send('GET', callback.slice(TEST_PUBLIC_URL.length))),
    );
    const outcomes = answers.map(outcomeOf);
    expect(outcomes.filter((o) => o === 'connected')).toHaveLength(1);
    expect(outcomes.filter((o) => o?.includes('already used'))).toHaveLength(9);
    expect(sf.requests.filter((r) => r.path === '/services/oauth2/token')).toHaveLength(1);
    const { rows } = await ctx.db.admin.query<{ n: number }>(
      'select (select count(*) from salesforce_connections)::int + (select count(*) from salesforce_sign_ins)::int as n',
    );
    expect(rows[0]!.n).toBe(1);
  });

  it("says in Salesforce's words when the connected app is refused", async () => {
    sf.clientSecret = 'rotated-in-salesforce';
    expect(outcomeOf((await signIn('Allow')).back)).toBe(
      'Salesforce did not connect. Salesforce answered 400: invalid_client: invalid client credentials',
    );
    expect(await state()).toBeNull();
  });

  it('imports open Leads and Contacts page by page through the import', async () => {
    sf.pageSize = 100;
    await insertContact(ctx.app, rep, { firstName: 'Existing', email: 'lead7@buyer.example' });
    sf.addLeads(
      Array.from({ length: 150 }, (_, i) => ({
        FirstName: `Lead${i}`,
        LastName: 'Force',
        Email: `lead${i}@buyer.example`,
        Company: 'Buyer Co',
        Title: 'Buyer',
      })),
    );
    sf.leads[3]!.IsConverted = true;
    sf.addContacts([
      {
        FirstName: 'Grace',
        LastName: 'Hopper',
        Phone: '(303) 555-0190',
        Title: 'Rear Admiral',
        Account: { Name: 'Navy', Website: 'https://navy.example' },
      },
      { FirstName: 'No', LastName: 'Way', Account: null },
    ]);
    await connect();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => send('POST', '/api/salesforce/import', { duplicates: 'skip' })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([202, 409, 409, 409, 409]);
    const done = await until(state, (s) => s?.importStatus !== 'running');
    expect(done).toMatchObject({
      importStatus: 'done',
      importSummary: '151 Salesforce Leads and Contacts: 149 new, 0 updated, 2 skipped.',
    });
    // Leads in two pages (the query, then its nextRecordsUrl), Contacts in one.
    expect(sf.requests.filter((r) => r.path.startsWith('/services/data/v60.0/query'))).toHaveLength(3);
    const grace = await ctx.db.admin.query(
      `select phone_e164, company, title, website from contacts where first_name = 'Grace'`,
    );
    expect(grace.rows).toEqual([
      {
        phone_e164: '+13035550190',
        company: 'Navy',
        title: 'Rear Admiral',
        website: 'https://navy.example',
      },
    ]);
    const history = await ctx.db.admin.query(`select file_name, format, status from contact_imports`);
    expect(history.rows).toEqual([
      {
        file_name: 'Salesforce Leads and Contacts (rep@acme.example)',
        format: 'salesforce',
        status: 'done',
      },
    ]);

    // Contacts alone, updating the ones already here.
    sf.contacts[0]!.Title = 'Admiral';
    expect(
      (await send('POST', '/api/salesforce/import', { duplicates: 'update', objects: ['Contact'] }))
        .statusCode,
    ).toBe(202);
    expect(await until(state, (s) => s?.importStatus !== 'running')).toMatchObject({
      importSummary: '2 Salesforce Contacts: 0 new, 1 updated, 1 skipped.',
    });
  });

  it('logs each saved outcome as a completed Task on the Contact, else the open Lead, refreshing the token when it expires', async () => {
    sf.addContacts([{ FirstName: 'Ada', LastName: 'Byron', Email: 'ada@engines.example', Account: null }]);
    sf.addLeads([{ FirstName: 'Bo', LastName: "O'Brien", Phone: '(720) 555-0142', Company: 'Bo Co' }]);
    await connect();
    const ada = await insertContact(ctx.app, rep, {
      firstName: 'Ada',
      lastName: 'Byron',
      email: 'Ada@Engines.example',
    });
    const bo = await insertContact(ctx.app, rep, {
      firstName: 'Bo',
      lastName: "O'Brien",
      email: "bo.o'brien@nowhere.example",
      phone: '+1 720 555 0142',
    });
    const save = async (contactId: string, disposition: string, notes?: string) =>
      expect(
        (await send('POST', '/api/dispositions', { contactId, disposition, ...(notes && { notes }) }))
          .statusCode,
      ).toBe(201);

    await save(ada.id, 'voicemail', 'Left a message about the demo');
    await until(state, (s) => s?.callsLogged === 1);
    const { rows } = await ctx.db.admin.query<{ id: string; day: string }>(
      `select id, to_char(called_at at time zone 'UTC', 'YYYY-MM-DD') as day from call_dispositions`,
    );
    expect(sf.tasks).toEqual([
      {
        Id: expect.stringMatching(/^00T/),
        WhoId: sf.contacts[0]!.Id,
        Subject: 'Call: Voicemail',
        Status: 'Completed',
        TaskSubtype: 'Call',
        Type: 'Call',
        ActivityDate: rows[0]!.day,
        CallType: 'Outbound',
        CallDisposition: 'Voicemail',
        Description: 'Outcome: Voicemail\n\nLeft a message about the demo',
      },
    ]);
    // The job run again (a retry after a crash) finds it logged.
    await ctx.db.admin.query(
      `select graphile_worker.add_job('salesforce-log-call', json_build_object('dispositionId', $1::text, 'userId', $2::text))`,
      [rows[0]!.id, rep.userId],
    );
    await new Promise((r) => setTimeout(r, 1500));
    expect(sf.tasks).toHaveLength(1);

    // The access token expired: refreshed with the refresh token, kept, and the Task logged on Bo's Lead, found by
    // his number as Salesforce keeps it; the org's request limit is waited out.
    sf.expireAccessTokens();
    sf.failNext.push(403);
    const sealedBefore = (
      await ctx.db.admin.query<{ a: string }>('select access_token_sealed as a from salesforce_connections')
    ).rows[0]!.a;
    await save(bo.id, 'qualified');
    const limited = await until(state, (s) => s?.lastError !== null);
    expect(limited!.lastError).toBe(
      'Salesforce answered 403: REQUEST_LIMIT_EXCEEDED: TotalRequests Limit exceeded.',
    );
    expect(await until(state, (s) => s?.callsLogged === 2)).toMatchObject({ lastError: null });
    expect(sf.tasks[1]).toMatchObject({ WhoId: sf.leads[0]!.Id, Subject: 'Call: Qualified Lead' });
    const sealedAfter = (
      await ctx.db.admin.query<{ a: string }>('select access_token_sealed as a from salesforce_connections')
    ).rows[0]!.a;
    expect(sealedAfter).not.toBe(sealedBefore);

    // Nobody in Salesforce with that e-mail or phone: the card says which call and why.
    const cy = await insertContact(ctx.app, rep, {
      firstName: 'Cy',
      lastName: 'Nobody',
      phone: '(720) 555-0199',
    });
    await save(cy.id, 'busy');
    expect((await until(state, (s) => s?.lastError !== null))!.lastError).toBe(
      'A call with Cy Nobody was not logged: no Salesforce Contact or open Lead has its e-mail or phone number.',
    );

    // The connection revoked in Salesforce: recorded, told once.
    sf.revokeAll();
    await save(ada.id, 'not-interested');
    const refused = await until(state, (s) => s?.lastError?.includes('invalid_grant') ?? false);
    expect(refused!.lastError).toBe('Salesforce answered 400: invalid_grant: expired access/refresh token');
    expect(refused!.callsLogged).toBe(2);
    const notices = (await send('GET', '/api/notifications')).json<{
      notifications: { kind: string; title: string; link: string }[];
    }>().notifications;
    expect(notices.map((n) => [n.kind, n.title, n.link])).toEqual([
      ['integration-failed', 'Salesforce refused the connection', '/settings?tab=integrations'],
    ]);

    // Logging turned off: outcomes saved later queue nothing.
    expect((await send('PATCH', '/api/salesforce', { logCalls: false })).json()).toMatchObject({
      salesforce: { logCalls: false },
    });
    await save(ada.id, 'answered');
    const queued = await ctx.db.admin.query<{ n: number }>(
      `select count(*)::int as n from graphile_worker.jobs where task_identifier = 'salesforce-log-call'`,
    );
    expect(queued.rows[0]!.n).toBe(0);
  });

  it('works across two instances: signed in on one, back on the other, each call logged once', async () => {
    const second = await buildSecondInstance(ctx, {
      salesforce: { clientId: sf.clientId, clientSecret: sf.clientSecret, loginUrl: sf.url },
    });
    try {
      sf.addContacts([{ FirstName: 'Ada', LastName: 'Byron', Email: 'ada@engines.example', Account: null }]);
      const started = await send('POST', '/api/salesforce/authorize', {});
      const page = await (await fetch(started.json<{ url: string }>().url)).text();
      const allow = /href="([^"]+)">Allow</.exec(page)![1]!;
      const callback = (await fetch(`${sf.url}${allow}`, { redirect: 'manual' })).headers.get('location')!;
      const back = await second.inject({
        method: 'GET',
        url: callback.slice(TEST_PUBLIC_URL.length),
        headers: asCookie(rep),
      });
      expect(outcomeOf(back)).toBe('connected');
      const ada = await insertContact(ctx.app, rep, { firstName: 'Ada', email: 'ada@engines.example' });
      sf.expireAccessTokens(); // both instances' jobs refresh as they go
      await Promise.all(
        Array.from({ length: 20 }, async (_, i) =>
          expect(
            (
              await (i % 2 === 0 ? ctx.app : second).inject({
                method: 'POST',
                url: '/api/dispositions',
                headers: asCookie(rep),
                payload: { contactId: ada.id, disposition: 'answered', notes: `Call ${i}` },
              })
            ).statusCode,
          ).toBe(201),
        ),
      );
      expect(await until(state, (s) => s?.callsLogged === 20)).toMatchObject({ lastError: null });
      await new Promise((r) => setTimeout(r, 500));
      expect(sf.tasks).toHaveLength(20);
      expect(new Set(sf.tasks.map((t) => t.Description)).size).toBe(20);
    } finally {
      await second.close();
    }
  });

  it('refuses an import or a change without a connection, and an import of nothing', async () => {
    expect((await send('POST', '/api/salesforce/import', {})).statusCode).toBe(404);
    expect((await send('PATCH', '/api/salesforce', { logCalls: false })).statusCode).toBe(404);
    await connect();
    const nothing = await send('POST', '/api/salesforce/import', { objects: [] });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().issues[0].message).toBe('Choose Leads, Contacts or both.');
  });
});

describe('Salesforce without a connected app', () => {
  it('says so, and neither starts nor finishes a sign-in', async () => {
    const bare = await createTestApp();
    try {
      const user = await createAccount(bare, 'user');
      const get = await bare.app.inject({ method: 'GET', url: '/api/salesforce', headers: asCookie(user) });
      expect(get.json()).toMatchObject({ configured: false, salesforce: null });
      const start = await bare.app.inject({
        method: 'POST',
        url: '/api/salesforce/authorize',
        headers: asCookie(user),
        payload: {},
      });
      expect(start.statusCode).toBe(503);
      expect(start.json().message).toBe(
        'Salesforce is not set up on this server: its operator sets SALESFORCE_CLIENT_ID and SALESFORCE_CLIENT_SECRET.',
      );
      const back = await bare.app.inject({
        method: 'GET',
        url: '/api/salesforce/callback?code=x&state=y',
        headers: asCookie(user),
      });
      expect(outcomeOf(back)).toMatch(/^Salesforce is not set up on this server/);
    } finally {
      await bare.close();
    }
  });
});
