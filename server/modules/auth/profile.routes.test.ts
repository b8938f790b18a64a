import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

const put = (payload: object, as: Session = rep) =>
  ctx.app.inject({ method: 'PUT', url: '/api/me', headers: asCookie(as), payload });

describe('Settings → Profile', () => {
  it('changes the name and time zone, and only those', async () => {
    const response = await put({
      firstName: '  Ada ',
      lastName: 'Lovelace',
      timeZone: 'Europe/London',
      role: 'admin',
      email: 'someone-else@example.com',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().profile).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      timeZone: 'Europe/London',
      role: 'user',
      email: rep.email,
    });
    const session = (
      await ctx.app.inject({ method: 'GET', url: '/api/session', headers: asCookie(rep) })
    ).json();
    expect(session.profile).toMatchObject({ firstName: 'Ada', timeZone: 'Europe/London', role: 'user' });
    const { rows } = await ctx.db.admin.query<{ name: string }>('select name from auth_users where id = $1', [
      rep.userId,
    ]);
    expect(rows[0]!.name).toBe('Ada Lovelace');

    // Back to the browser's zone.
    expect(
      (await put({ firstName: 'Ada', lastName: '', timeZone: null })).json().profile.timeZone,
    ).toBeNull();
  });

  it('refuses an unknown zone and an overlong name, changing nothing', async () => {
    const zone = await put({ firstName: 'Ada', lastName: 'L', timeZone: 'Mars/Olympus' });
    expect(zone.statusCode).toBe(400);
    expect(JSON.stringify(zone.json().issues)).toContain('Unknown time zone');
    expect((await put({ firstName: 'x'.repeat(101), lastName: '', timeZone: null })).statusCode).toBe(400);
    expect((await put({ firstName: 'Ada\u0000', lastName: '', timeZone: null })).statusCode).toBeLessThan(
      500,
    );
    const me = (await ctx.app.inject({ method: 'GET', url: '/api/me', headers: asCookie(rep) })).json();
    expect(me.profile.timeZone).toBeNull();
    expect(me.profile.firstName).not.toBe('x'.repeat(101));
  });

  it("never reaches another user's profile", async () => {
    const other = await createAccount(ctx, 'user');
    await put({ firstName: 'Mallory', lastName: '', timeZone: 'UTC' }, other);
    const mine = (await ctx.app.inject({ method: 'GET', url: '/api/me', headers: asCookie(rep) })).json();
    expect(mine.profile.firstName).not.toBe('Mallory');
  });
});
