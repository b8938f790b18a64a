import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeTwilio, type FakeTwilio } from '../../test/fake-twilio.ts';
import { asCookie, createAccount, type Session, type TestContext } from '../../test/test-app.ts';
import { createTwilioTestApp } from '../../test/twilio-test-app.ts';

let fake: FakeTwilio;
let ctx: TestContext;
let rep: Session;

beforeEach(async () => {
  fake = await startFakeTwilio();
  ctx = await createTwilioTestApp(fake);
  rep = await createAccount(ctx, 'user');
});
afterEach(async () => {
  await ctx.close();
  await fake.close();
});

describe('caller IDs on Twilio', () => {
  const add = (number: string, as: Session = rep) =>
    ctx.app.inject({ method: 'POST', url: '/api/caller-ids', headers: asCookie(as), payload: { number } });

  it("accepts only numbers the account owns or has verified, as Twilio's API says", async () => {
    fake.ownedNumbers.add('+15005550010');
    fake.verifiedCallerIds.add('+15005550011');
    const unknown = await add('(500) 555-0012');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(
      /neither one of your Twilio account's numbers nor a caller ID verified/,
    );
    expect((await add('(500) 555-0010')).statusCode).toBe(201);
    expect((await add('(500) 555-0011')).statusCode).toBe(201);
    const asked = fake.requests.filter((r) => r.method === 'GET').map((r) => r.path.split('/').at(-1));
    expect(asked).toEqual(expect.arrayContaining(['IncomingPhoneNumbers.json', 'OutgoingCallerIds.json']));
  });

  it("shares the account's own numbers, but never gives one person's verified number to another", async () => {
    fake.ownedNumbers.add('+15005550020');
    fake.verifiedCallerIds.add('+15005550021');
    const colleague = await createAccount(ctx, 'user');
    expect((await add('(500) 555-0020')).statusCode).toBe(201);
    expect((await add('(500) 555-0020', colleague)).statusCode).toBe(201);
    expect((await add('(500) 555-0021')).statusCode).toBe(201);
    const taken = await add('(500) 555-0021', colleague);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe("That number is already another user's caller ID.");
  });

  it('says so when Twilio cannot be asked, and adds nothing', async () => {
    await fake.close();
    const unreachable = await add('(500) 555-0030');
    expect(unreachable.statusCode).toBe(502);
    expect(unreachable.json().message).toMatch(/Twilio could not check that number/);
    expect((await ctx.db.admin.query('select count(*)::int as n from caller_ids')).rows[0].n).toBe(0);
  });
});
