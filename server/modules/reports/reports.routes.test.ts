import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertContact } from '../../test/contact-factory.ts';
import {
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';

let ctx: TestContext;
let rep: Session;
beforeEach(async () => {
  ctx = await createTestApp();
  rep = await createAccount(ctx, 'user');
});
afterEach(() => ctx.close());

const get = (url: string, as: Session = rep) => ctx.app.inject({ method: 'GET', url, headers: asCookie(as) });
const NEW_YORK = 'America/New_York';

/** A call of `who` started at `at`, as the calling module records one; `connected` when the provider said so. */
async function callAt(who: Session, at: string, contactId: string | null = null, connected = false) {
  const { rows } = await ctx.db.admin.query<{ id: string }>(
    `insert into calls (user_id, contact_id, request_id, provider, provider_call_id, from_number, to_number, status,
       started_at, answered_at, updated_at)
     values ($1, $2, substr(md5(random()::text), 1, 8), 'simulator', md5(random()::text), '+15550100000',
       '+15550100017', 'completed', $3, case when $4 then $3::timestamptz end, now())
     returning id`,
    [who.userId, contactId, at, connected],
  );
  return rows[0]!.id;
}

/** A disposition saved by `who` at `at`, for a call or standing alone. */
async function dispositionAt(
  who: Session,
  at: string,
  disposition: string,
  values: { callId?: string; contactId?: string | null; notes?: string } = {},
) {
  const { rows } = await ctx.db.admin.query<{ id: string }>(
    `insert into call_dispositions (contact_id, user_id, disposition, notes, call_id, called_at, is_qualified)
     values ($1, $2, $3, $4, $5, $6, $3 = 'qualified') returning id`,
    [values.contactId ?? null, who.userId, disposition, values.notes ?? null, values.callId ?? null, at],
  );
  return rows[0]!.id;
}

describe('reports overview', () => {
  it("counts the day in the user's zone the way the call logs do, lists dispositions, the 10 most recent and the hours", async () => {
    const ann = await insertContact(ctx.app, rep, { firstName: 'Ann', lastName: 'Lee', company: 'Acme' });
    // 25 Nov in New York runs from 05:00Z on the 25th to 05:00Z on the 26th.
    const first = await callAt(rep, '2026-11-25T14:10:00Z', ann.id, true); // 09:10 local
    await dispositionAt(rep, '2026-11-25T14:12:00Z', 'qualified', { callId: first, contactId: ann.id });
    const second = await callAt(rep, '2026-11-25T14:40:00Z', ann.id, true); // 09:40 local
    await dispositionAt(rep, '2026-11-25T14:41:00Z', 'voicemail', { callId: second, contactId: ann.id });
    await callAt(rep, '2026-11-26T03:30:00Z', null, true); // 22:30 local on the 25th, connected, no disposition
    await dispositionAt(rep, '2026-11-25T20:00:00Z', 'not-interested'); // saved without a call, 15:00 local
    await callAt(rep, '2026-11-25T04:59:00Z'); // 23:59 on the 24th in New York: not this day
    const stranger = await createAccount(ctx, 'user');
    await callAt(stranger, '2026-11-25T15:00:00Z', null, true);

    const response = await get(`/api/reports/overview?day=2026-11-25&tz=${encodeURIComponent(NEW_YORK)}`);
    expect(response.statusCode).toBe(200);
    const overview = response.json();
    expect(overview).toMatchObject({
      day: '2026-11-25',
      timeZone: NEW_YORK,
      totalCalls: 4,
      qualifiedLeads: 1,
    });
    // Answered: the qualified call, the connected call without a disposition and not-interested; not voicemail.
    expect(overview.answeredCalls).toBe(3);
    expect(overview.dispositions).toEqual([
      { disposition: 'not-interested', count: 1 },
      { disposition: 'qualified', count: 1 },
      { disposition: 'voicemail', count: 1 },
    ]);
    expect(overview.recentCalls.map((c: { at: string }) => c.at)).toEqual([
      '2026-11-26T03:30:00.000Z',
      '2026-11-25T20:00:00.000Z',
      '2026-11-25T14:40:00.000Z',
      '2026-11-25T14:10:00.000Z',
    ]);
    expect(overview.recentCalls[3]).toMatchObject({
      name: 'Ann Lee',
      company: 'Acme',
      disposition: 'qualified',
    });
    const hours = Object.fromEntries(
      overview.hourly
        .filter((h: { calls: number }) => h.calls > 0)
        .map((h: { hour: number; calls: number; answered: number }) => [h.hour, [h.calls, h.answered]]),
    );
    expect(hours).toEqual({ 9: [2, 1], 15: [1, 1], 22: [1, 1] });

    // The same day on the Call Logs dashboard gives the same counts.
    const log = (
      await get(`/api/calls/day?from=2026-11-25T05:00:00.000Z&to=2026-11-26T05:00:00.000Z`)
    ).json();
    expect([log.stats.total, log.stats.answered, log.stats.qualified]).toEqual([4, 3, 1]);

    // In UTC the day holds a different set of calls.
    const utc = (await get('/api/reports/overview?day=2026-11-25&tz=UTC')).json();
    expect(utc.totalCalls).toBe(4); // the 04:59Z call joins, the 03:30Z on the 26th leaves
    expect(utc.recentCalls.at(-1).at).toBe('2026-11-25T04:59:00.000Z');
    // The stranger sees only their own call.
    const theirs = (await get(`/api/reports/overview?day=2026-11-25&tz=UTC`, stranger)).json();
    expect([theirs.totalCalls, theirs.answeredCalls]).toEqual([1, 1]);
  });

  it('shows the 10 most recent calls only', async () => {
    for (let hour = 10; hour < 22; hour++) await callAt(rep, `2026-11-25T${hour}:00:00Z`);
    const overview = (await get('/api/reports/overview?day=2026-11-25&tz=UTC')).json();
    expect(overview.totalCalls).toBe(12);
    expect(overview.recentCalls).toHaveLength(10);
    expect(overview.recentCalls[0].at).toBe('2026-11-25T21:00:00.000Z');
    expect(overview.recentCalls[9].at).toBe('2026-11-25T12:00:00.000Z');
  });

  it('refuses an unknown time zone and a day that is not one', async () => {
    const zone = await get('/api/reports/overview?day=2026-11-25&tz=Mars%2FOlympus');
    expect(zone.statusCode).toBe(400);
    expect(JSON.stringify(zone.json().issues)).toMatch(/Unknown time zone/);
    expect((await get('/api/reports/overview?day=2026-13-45&tz=UTC')).statusCode).toBe(400);
    expect((await get('/api/reports/outcomes?day=2026-11-25&tz=UTC&days=9')).statusCode).toBe(400);
  });
});

describe('outcomes over the last 7 or 30 days', () => {
  it("counts each day's outcomes in the user's zone, a call once with its latest disposition", async () => {
    const call = await callAt(rep, '2026-11-24T15:00:00Z');
    await dispositionAt(rep, '2026-11-24T15:01:00Z', 'no-answer', { callId: call });
    await dispositionAt(rep, '2026-11-24T15:02:00Z', 'call-back', { callId: call }); // replaces no-answer
    await callAt(rep, '2026-11-25T03:00:00Z'); // 22:00 on the 24th in New York, no disposition
    await dispositionAt(rep, '2026-11-25T16:00:00Z', 'qualified');
    await callAt(rep, '2026-11-18T16:00:00Z'); // 8 days back: outside 7 days, inside 30
    const stranger = await createAccount(ctx, 'user');
    await callAt(stranger, '2026-11-24T15:00:00Z');

    const url = (days: number) =>
      `/api/reports/outcomes?day=2026-11-25&tz=${encodeURIComponent(NEW_YORK)}&days=${days}`;
    const week = (await get(url(7))).json().days;
    expect(week.map((d: { day: string }) => d.day)).toEqual([
      '2026-11-19',
      '2026-11-20',
      '2026-11-21',
      '2026-11-22',
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
    ]);
    expect(week[5]).toEqual({ day: '2026-11-24', total: 2, outcomes: { 'call-back': 1, none: 1 } });
    expect(week[6]).toEqual({ day: '2026-11-25', total: 1, outcomes: { qualified: 1 } });
    expect(week.slice(0, 5).every((d: { total: number }) => d.total === 0)).toBe(true);
    const month = (await get(url(30))).json().days;
    expect(month).toHaveLength(30);
    expect(month.find((d: { day: string }) => d.day === '2026-11-18').total).toBe(1);
  });
});

describe('qualified leads', () => {
  it('lists qualified dispositions newest first, searches name, company, e-mail and notes, pages, and never shows another user', async () => {
    const ann = await insertContact(ctx.app, rep, {
      firstName: 'Ann',
      lastName: 'Lee',
      company: 'Northwind',
      email: 'ann@northwind.test',
      website: 'https://northwind.test',
    });
    const bo = await insertContact(ctx.app, rep, { firstName: 'Bo', lastName: 'Diaz', company: 'Contoso' });
    await dispositionAt(rep, '2026-11-20T10:00:00Z', 'qualified', {
      contactId: ann.id,
      notes: 'Wants a pilot in January',
    });
    await dispositionAt(rep, '2026-11-21T10:00:00Z', 'qualified', {
      contactId: bo.id,
      notes: '50% off_deal',
    });
    await dispositionAt(rep, '2026-11-22T10:00:00Z', 'voicemail', { contactId: bo.id, notes: 'pilot' });
    const stranger = await createAccount(ctx, 'user');
    await dispositionAt(stranger, '2026-11-23T10:00:00Z', 'qualified', { notes: 'secret pilot' });

    const leads = async (query: string, as: Session = rep) =>
      (await get(`/api/reports/qualified-leads?${query}`, as)).json();
    const all = await leads('');
    expect(all.leads.map((l: { name: string }) => l.name)).toEqual(['Bo Diaz', 'Ann Lee']);
    expect(all.leads[1]).toMatchObject({
      company: 'Northwind',
      email: 'ann@northwind.test',
      website: 'https://northwind.test',
      notes: 'Wants a pilot in January',
      calledAt: '2026-11-20T10:00:00.000Z',
    });
    const names = async (search: string) =>
      (await leads(`search=${encodeURIComponent(search)}`)).leads.map((l: { name: string }) => l.name);
    expect(await names('PILOT')).toEqual(['Ann Lee']); // the voicemail's notes and the stranger's do not count
    expect(await names('contoso')).toEqual(['Bo Diaz']);
    expect(await names('ann@north')).toEqual(['Ann Lee']);
    expect(await names('diaz')).toEqual(['Bo Diaz']);
    expect(await names('%')).toEqual(['Bo Diaz']); // a literal percent sign, not a wildcard
    expect(await names('f_d')).toEqual(['Bo Diaz']);
    expect(await names('nothing like this')).toEqual([]);

    const first = await leads('limit=1');
    expect(first.leads).toHaveLength(1);
    const second = await leads(`limit=1&after=${encodeURIComponent(first.next)}`);
    expect(second.leads[0].name).toBe('Ann Lee');
    expect(second.next).toBeNull();
    expect((await leads('', stranger)).leads.map((l: { notes: string }) => l.notes)).toEqual([
      'secret pilot',
    ]);

    // A deleted contact's lead stays, without a name.
    await ctx.app.inject({ method: 'DELETE', url: `/api/contacts/${bo.id}`, headers: asCookie(rep) });
    expect((await leads('')).leads[0]).toMatchObject({ name: null, notes: '50% off_deal' });
    expect((await get('/api/reports/qualified-leads?after=nonsense')).statusCode).toBe(400);
  });
});
