import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertContact } from '../../test/contact-factory.ts';
import { placeCallAs } from '../../test/calls-test-kit.ts';
import {
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';

/*
 * Local presence (decision 027) through the routes, the simulator and PostgreSQL: with several caller IDs, each call
 * goes out from the one nearest the contact. The numbers called end in 2, which the simulator fails at once, so each
 * call is over before the next (what is tested is the number it went out from).
 */

let ctx: TestContext;
let rep: Session;

beforeEach(async () => {
  ctx = await createTestApp();
  // 11:00 in Denver, noon in Chicago, 1 pm in New York: within calling hours everywhere called here.
  ctx.clock.set(new Date('2026-11-23T18:00:00Z'));
  rep = await createAccount(ctx, 'user');
  for (const [number, isDefault] of [
    ['(212) 555-0100', true],
    ['(303) 555-0101', false],
    ['(512) 555-0103', false],
  ] as const) {
    const added = await ctx.app.inject({
      method: 'POST',
      url: '/api/caller-ids',
      headers: asCookie(rep),
      payload: { number, isDefault },
    });
    expect(added.statusCode).toBe(201);
  }
});
afterEach(() => ctx.close());

async function callFrom(phone: string, from?: string) {
  const contact = await insertContact(ctx.app, rep, { phone });
  const placed = await placeCallAs(ctx.app, rep, { contactId: contact.id, ...(from && { from }) });
  expect(placed.statusCode, placed.body).toBe(201);
  const { call } = placed.json<{ call: { from: string; fromPlace: string | null } }>();
  return call;
}

describe('local presence', () => {
  it('calls each contact from the nearest caller ID: area code, then state, then time zone, then the default', async () => {
    const setup = await ctx.app.inject({ method: 'GET', url: '/api/calls/setup', headers: asCookie(rep) });
    expect(setup.json()).toMatchObject({ localPresence: true, defaultFrom: '+12125550100' });

    expect(await callFrom('(303) 555-0122')).toEqual(
      expect.objectContaining({ from: '+13035550101', fromPlace: 'Colorado' }),
    );
    expect((await callFrom('(720) 555-0132')).from).toBe('+13035550101'); // Colorado: same state
    expect((await callFrom('(214) 555-0142')).from).toBe('+15125550103'); // Dallas: Texas
    expect((await callFrom('(312) 555-0152')).from).toBe('+15125550103'); // Chicago: Austin's time zone
    expect((await callFrom('(718) 555-0162')).from).toBe('+12125550100'); // Brooklyn: New York
    expect((await callFrom('(602) 555-0172')).from).toBe('+12125550100'); // Phoenix: nothing near, the default
  });

  it('keeps the caller ID the user chose, and the default for all once turned off', async () => {
    expect((await callFrom('(303) 555-0182', '(512) 555-0103')).from).toBe('+15125550103');

    const off = await ctx.app.inject({
      method: 'PUT',
      url: '/api/caller-ids/local-presence',
      headers: asCookie(rep),
      payload: { on: false },
    });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ on: false });
    const setup = await ctx.app.inject({ method: 'GET', url: '/api/calls/setup', headers: asCookie(rep) });
    expect(setup.json().localPresence).toBe(false);
    expect((await callFrom('(303) 555-0192')).from).toBe('+12125550100');

    const bad = await ctx.app.inject({
      method: 'PUT',
      url: '/api/caller-ids/local-presence',
      headers: asCookie(rep),
      payload: { on: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('calls each contact of a bulk call from the nearest caller ID when none was chosen', async () => {
    const denver = await insertContact(ctx.app, rep, { phone: '(303) 555-0212' });
    const dallas = await insertContact(ctx.app, rep, { phone: '(214) 555-0222' });
    const started = await ctx.app.inject({
      method: 'POST',
      url: '/api/calls/bulk',
      headers: asCookie(rep),
      payload: { selection: { ids: [denver.id, dallas.id] } },
    });
    expect(started.statusCode, started.body).toBe(201);
    expect(started.json().job).toMatchObject({ localPresence: true, from: '+12125550100' });
    const until = Date.now() + 8000;
    let rows: { contact_id: string; from_number: string }[] = [];
    while (rows.length < 2 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
      rows = (
        await ctx.db.admin.query<{ contact_id: string; from_number: string }>(
          'select contact_id, from_number from calls where user_id = $1',
          [rep.userId],
        )
      ).rows;
    }
    expect(Object.fromEntries(rows.map((r) => [r.contact_id, r.from_number]))).toEqual({
      [denver.id]: '+13035550101',
      [dallas.id]: '+15125550103',
    });
  });
});
