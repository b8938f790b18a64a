import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertContact } from '../../test/contact-factory.ts';
import {
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
  allowUnknownLocalTime,
} from '../../test/test-app.ts';

let ctx: TestContext;
let rep: Session;
beforeEach(async () => {
  ctx = await createTestApp();
  rep = await createAccount(ctx, 'user');
  await allowUnknownLocalTime(ctx.app, rep);
});
afterEach(() => ctx.close());

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, as: Session = rep) =>
  ctx.app.inject({ method, url, headers: asCookie(as), ...(payload ? { payload } : {}) });
const sentSoFar = async () =>
  (
    await ctx.db.admin.query(
      `select (select count(*)::int from email_campaign_recipients where state = 'sent')
            + (select count(*)::int from sms_campaign_recipients where state = 'sent') as n`,
    )
  ).rows[0].n as number;

describe("a user's sending limits (a per-user rate)", () => {
  it('are the user’s own, none by default, and refuse values out of range', async () => {
    expect((await call('GET', '/api/sending-limits')).json()).toEqual({
      emailPerMinute: null,
      smsPerMinute: null,
    });
    expect(
      (await call('PUT', '/api/sending-limits', { emailPerMinute: 0, smsPerMinute: null })).statusCode,
    ).toBe(400);
    expect(
      (await call('PUT', '/api/sending-limits', { emailPerMinute: 3001, smsPerMinute: null })).statusCode,
    ).toBe(400);
    const saved = await call('PUT', '/api/sending-limits', { emailPerMinute: 30, smsPerMinute: 10 });
    expect(saved.json()).toEqual({ emailPerMinute: 30, smsPerMinute: 10 });
    const other = await createAccount(ctx, 'user');
    expect((await call('GET', '/api/sending-limits', undefined, other)).json()).toEqual({
      emailPerMinute: null,
      smsPerMinute: null,
    });
  });

  it('hold across all of the user’s campaigns, whatever each campaign’s own pace', async () => {
    await call('PUT', '/api/sending-limits', { emailPerMinute: 1, smsPerMinute: 1 });
    const people = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        insertContact(ctx.app, rep, { email: `p${n}@b.example`, phone: `555010002${n + 2}` }),
      ),
    );
    const ids = people.map((p) => p.id);
    const emails = await Promise.all(
      [ids.slice(0, 2), ids.slice(2)].map(
        async (chosen, i) =>
          (
            await call('POST', '/api/email-campaigns', {
              name: `Fast ${i}`,
              subject: 'Hi',
              body: 'Hello',
              perMinute: 3000,
              selection: { ids: chosen },
            })
          ).json().campaign.id,
      ),
    );
    for (const id of emails)
      expect((await call('POST', `/api/email-campaigns/${id}/send`)).statusCode).toBe(200);
    const sms = (
      await call('POST', '/api/sms-campaigns', {
        name: 'Texts',
        message: 'Hi',
        perMinute: 3000,
        selection: { ids },
      })
    ).json().campaign.id;
    await call('POST', `/api/sms-campaigns/${sms}/send`);
    // At one a minute each: one e-mail and one text in the first seconds, however many campaigns are sending.
    const until = Date.now() + 5_000;
    while ((await sentSoFar()) < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await sentSoFar()).toBe(2);
    // A minute later, one more of each. The consent record holds one line per message that went, not one per
    // time a send asked for a slot and waited.
    ctx.clock.advance(61_000);
    // The job queue waits on the database's clock: the runs waiting for the next slot are due now.
    await ctx.db.admin.query(`update graphile_worker._private_jobs set run_at = now() where run_at > now()`);
    const later = Date.now() + 5_000;
    while ((await sentSoFar()) < 4 && Date.now() < later) await new Promise((r) => setTimeout(r, 50));
    expect(await sentSoFar()).toBe(4);
    const lines = await ctx.db.admin.query<{ channel: string; outcome: string; n: number }>(
      `select channel, outcome, count(*)::int as n from consent_decisions
        where user_id = $1 group by channel, outcome order by channel`,
      [rep.userId],
    );
    expect(lines.rows).toEqual([
      { channel: 'campaign-email', outcome: 'allowed', n: 2 },
      { channel: 'text', outcome: 'allowed', n: 2 },
    ]);
  });
});
