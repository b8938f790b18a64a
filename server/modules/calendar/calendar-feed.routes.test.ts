import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CalendarFeed } from '#domain/calendar/callback-feed.ts';
import { insertContact } from '../../test/contact-factory.ts';
import {
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';
import { TEST_PUBLIC_URL } from '../../test/test-constants.ts';

/*
 * The callbacks calendar feed (decision 032), through the real routes and PostgreSQL: a secret address, made and
 * shown again to its owner, read by a calendar app without a session, revoked by regenerating or turning it off.
 */

let ctx: TestContext;
let rep: Session;
beforeEach(async () => {
  ctx = await createTestApp();
  rep = await createAccount(ctx, 'user');
});
afterEach(() => ctx.close());

const send = (method: 'GET' | 'POST' | 'DELETE', url: string, who: Session = rep) =>
  ctx.app.inject({ method, url, headers: asCookie(who) });
const makeFeed = async (who: Session = rep) => {
  const made = await send('POST', '/api/calendar-feed', who);
  expect(made.statusCode).toBe(201);
  return made.json<{ feed: CalendarFeed }>().feed;
};
/** What a calendar app fetches: the address as given, no cookie. */
const fetchFeed = (url: string) => ctx.app.inject({ method: 'GET', url: url.replace(TEST_PUBLIC_URL, '') });
const callBack = async (who: Session, contactId: string, callbackDate: string, notes?: string) => {
  const saved = await ctx.app.inject({
    method: 'POST',
    url: '/api/dispositions',
    headers: asCookie(who),
    payload: { contactId, disposition: 'call-back', callbackDate, ...(notes && { notes }) },
  });
  expect(saved.statusCode, saved.body).toBe(201);
};

describe('callbacks calendar feed', () => {
  it('gives a secret address that lists each callback still due as an event, read without a session', async () => {
    expect((await send('GET', '/api/calendar-feed')).json()).toEqual({ feed: null });
    const ada = await insertContact(ctx.app, rep, {
      firstName: 'Ada',
      lastName: 'Byron',
      phone: '(720) 555-0177',
      company: 'Analytical Engines',
    });
    const bob = await insertContact(ctx.app, rep, {
      firstName: 'Bob',
      lastName: 'Called',
      phone: '(720) 555-0178',
    });
    await callBack(rep, ada.id, '2026-12-01T15:30:00Z', 'Wants the annual plan quote');
    // Bob's callback is done: he was called since.
    await callBack(rep, bob.id, '2026-12-02T15:30:00Z');
    ctx.clock.advance(60_000);
    const answered = await ctx.app.inject({
      method: 'POST',
      url: '/api/dispositions',
      headers: asCookie(rep),
      payload: { contactId: bob.id, disposition: 'answered' },
    });
    expect(answered.statusCode).toBe(201);
    // Another user's callback is theirs alone.
    const other = await createAccount(ctx, 'user');
    const theirs = await insertContact(ctx.app, other, {
      firstName: 'Not',
      lastName: 'Yours',
      phone: '(720) 555-0179',
    });
    await callBack(other, theirs.id, '2026-12-01T16:00:00Z');

    const feed = await makeFeed();
    expect(feed.url).toMatch(new RegExp(`^${TEST_PUBLIC_URL}/api/calendar/[A-Za-z0-9_-]{43}\\.ics$`));
    expect(feed.lastFetchedAt).toBeNull();
    expect((await send('GET', '/api/calendar-feed')).json()).toEqual({ feed });

    const ics = await fetchFeed(feed.url);
    expect(ics.statusCode).toBe(200);
    expect(ics.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const body = ics.body.replace(/\r\n /g, '');
    expect(body).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(body.match(/BEGIN:VEVENT/g)).toHaveLength(1);
    expect(body).toContain('SUMMARY:Call back Ada Byron');
    expect(body).toContain('DTSTART:20261201T153000Z');
    expect(body).toContain('DTEND:20261201T154500Z');
    expect(body).toContain(`URL;VALUE=URI:${TEST_PUBLIC_URL}/contacts/${ada.id}`);
    expect(body).toContain(
      'DESCRIPTION:Call (720) 555-0177\\nCompany: Analytical Engines\\nNotes: Wants the annual plan quote',
    );
    expect(body).not.toContain('Bob');
    expect(body).not.toContain('Yours');
    const seen = (await send('GET', '/api/calendar-feed')).json<{ feed: CalendarFeed }>().feed;
    expect(seen.lastFetchedAt).not.toBeNull();
  });

  it('drops callbacks more than 30 days past', async () => {
    const ada = await insertContact(ctx.app, rep, {
      firstName: 'Ada',
      lastName: 'Byron',
      phone: '(720) 555-0177',
    });
    await callBack(rep, ada.id, '2026-11-22T15:30:00Z');
    const feed = await makeFeed();
    expect((await fetchFeed(feed.url)).body).toContain('Call back Ada Byron');
    ctx.clock.advance(32 * 86_400_000);
    expect((await fetchFeed(feed.url)).body).not.toContain('BEGIN:VEVENT');
  });

  it('stops answering the old address once regenerated or turned off, and for a deactivated owner', async () => {
    const first = await makeFeed();
    const second = await makeFeed();
    expect(second.url).not.toBe(first.url);
    expect((await fetchFeed(first.url)).statusCode).toBe(404);
    expect((await fetchFeed(second.url)).statusCode).toBe(200);

    expect((await send('DELETE', '/api/calendar-feed')).statusCode).toBe(204);
    expect((await fetchFeed(second.url)).statusCode).toBe(404);
    expect((await send('GET', '/api/calendar-feed')).json()).toEqual({ feed: null });

    const third = await makeFeed();
    await ctx.db.admin.query('update user_profiles set deactivated_at = now() where id = $1', [rep.userId]);
    expect((await fetchFeed(third.url)).statusCode).toBe(404);
  });

  it('answers 404 for an address that is not one, whatever its shape', async () => {
    for (const token of ['x'.repeat(43), 'short', `${'a'.repeat(43)}.ics`, '..%2F..%2Fetc%2Fpasswd.ics']) {
      const answer = await ctx.app.inject({ method: 'GET', url: `/api/calendar/${token}` });
      expect([400, 404]).toContain(answer.statusCode);
      expect(answer.body).not.toContain('VCALENDAR');
    }
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/api/calendar/${'a'.repeat(43)}.ics` })).statusCode,
    ).toBe(404);
  });
});
