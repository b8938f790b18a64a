import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  asCookie,
  buildSecondInstance,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
  allowUnknownLocalTime,
} from '../../test/test-app.ts';
import { insertContact } from '../../test/contact-factory.ts';

let ctx: TestContext;
let rep: Session;

beforeEach(async () => {
  ctx = await createTestApp();
  rep = await createAccount(ctx, 'user');
  await allowUnknownLocalTime(ctx.app, rep);
});
afterEach(() => ctx.close());

const start = (payload: object, as: Session = rep) =>
  ctx.app.inject({ method: 'POST', url: '/api/calls/bulk', headers: asCookie(as), payload });
const job = async (id: string, as: Session = rep) =>
  ctx.app.inject({ method: 'GET', url: `/api/calls/bulk/${id}`, headers: asCookie(as) });
const finished = async (id: string) => {
  const until = Date.now() + 8000;
  for (;;) {
    const summary = (await job(id)).json().job;
    if (summary.status !== 'running' || Date.now() > until) return summary;
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('bulk calls', () => {
  it('calls every selected contact with a phone, one at a time on the server, and sums it up', async () => {
    const ids = [];
    for (let i = 3; i <= 6; i++)
      ids.push((await insertContact(ctx.app, rep, { phone: `(555) 010-010${i}` })).id);
    ids.push((await insertContact(ctx.app, rep, { phone: null })).id);
    const started = await start({ selection: { ids } });
    expect(started.statusCode).toBe(201);
    expect(started.json().job).toMatchObject({ total: 4, withoutPhone: 1, status: 'running' });
    const summary = await finished(started.json().job.id);
    expect(summary).toMatchObject({
      status: 'done',
      success: 4,
      skipped: 0,
      failed: 0,
      pending: 0,
      errors: [],
    });
    // created_at is the database's own time (the test clock is frozen): when each call was placed.
    const times = (await ctx.db.admin.query('select created_at from calls order by created_at')).rows.map(
      (r) => new Date(r.created_at).getTime(),
    );
    expect(times).toHaveLength(4);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(40);
  });

  it('records its calls as any call when the user records calls: a disclosure where the contact’s state needs one', async () => {
    // 10 am in California, noon in Texas.
    ctx.clock.set(new Date('2026-11-21T18:00:00Z'));
    const on = await ctx.app.inject({
      method: 'PUT',
      url: '/api/recording-settings',
      headers: asCookie(rep),
      payload: { recordCalls: true, retentionDays: 90 },
    });
    expect(on.statusCode).toBe(200);
    const california = await insertContact(ctx.app, rep, { phone: '(415) 555-0106', state: 'CA' });
    const texas = await insertContact(ctx.app, rep, { phone: '(512) 555-0106', state: 'TX' });
    const started = await start({ selection: { ids: [california.id, texas.id] } });
    expect((await finished(started.json().job.id)).success).toBe(2);
    const { rows } = await ctx.db.admin.query<{
      contact_id: string;
      recorded: boolean;
      recording_disclosure: string | null;
    }>('select contact_id, recorded, recording_disclosure from calls');
    expect(Object.fromEntries(rows.map((r) => [r.contact_id, [r.recorded, r.recording_disclosure]]))).toEqual(
      {
        [california.id]: [true, 'This call is recorded.'],
        [texas.id]: [true, null],
      },
    );
  });

  it("skips with the spec's reasons and reports failures with the contact's name", async () => {
    const a = await insertContact(ctx.app, rep, {
      firstName: 'Shared',
      lastName: 'One',
      phone: '(555) 010-0207',
    });
    const b = await insertContact(ctx.app, rep, {
      firstName: 'Shared',
      lastName: 'Two',
      phone: '555-010-0207',
    });
    const self = await insertContact(ctx.app, rep, {
      firstName: 'Own',
      lastName: 'Number',
      phone: '(555) 010-0000',
    });
    const refused = await insertContact(ctx.app, rep, {
      firstName: 'Unverified',
      lastName: 'Lead',
      phone: '(999) 555-0100',
    });
    const summary = await finished(
      (await start({ selection: { ids: [a.id, b.id, self.id, refused.id] } })).json().job.id,
    );
    expect(summary).toMatchObject({ success: 1, skipped: 2, failed: 1 });
    expect(summary.errors).toEqual(
      expect.arrayContaining([
        { contactName: 'Own Number', error: 'From and to numbers are the same' },
        { contactName: 'Shared Two', error: 'Prevented by deduplication system' },
        { contactName: 'Unverified Lead', error: expect.stringMatching(/not verified/) },
      ]),
    );
  });

  it('never places a call twice when two server instances work the same job', async () => {
    const second = await buildSecondInstance(ctx);
    try {
      const ids = [];
      for (let i = 0; i < 8; i++)
        ids.push((await insertContact(ctx.app, rep, { phone: `(555) 020-00${10 + i * 3}` })).id);
      const summary = await finished((await start({ selection: { ids } })).json().job.id);
      expect(summary.success + summary.skipped + summary.failed).toBe(8);
      const perRequest = await ctx.db.admin.query(
        'select request_id, count(*)::int as n from calls group by request_id having count(*) > 1',
      );
      expect(perRequest.rows).toEqual([]);
      expect((await ctx.db.admin.query('select count(*)::int as n from calls')).rows[0].n).toBe(
        summary.success + summary.failed,
      );
    } finally {
      await second.close();
    }
  });

  it('refuses a selection with no phone numbers, lets the owner cancel, and keeps jobs to their owner', async () => {
    const noPhone = await insertContact(ctx.app, rep, { phone: null });
    const none = await start({ selection: { ids: [noPhone.id] } });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(
      "Missing phone numbers: 1 selected contact(s) don't have phone numbers.",
    );
    const ids = [];
    for (let i = 0; i < 5; i++)
      ids.push((await insertContact(ctx.app, rep, { phone: `(555) 030-00${13 + i * 3}` })).id);
    const running = (await start({ selection: { ids } })).json().job;
    const other = await createAccount(ctx, 'user');
    expect((await job(running.id, other)).statusCode).toBe(404);
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: `/api/calls/bulk/${running.id}/cancel`,
          headers: asCookie(other),
        })
      ).statusCode,
    ).toBe(404);
    const cancel = await ctx.app.inject({
      method: 'POST',
      url: `/api/calls/bulk/${running.id}/cancel`,
      headers: asCookie(rep),
    });
    expect([204, 404]).toContain(cancel.statusCode); // 404 only if all five were already called
    const summary = (await job(running.id)).json().job;
    expect(summary.pending).toBe(0);
    if (cancel.statusCode === 204) expect(summary.status).toBe('canceled');
  });
});
