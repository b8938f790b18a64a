import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CAMPAIGN_MAX_RECIPIENTS,
  CAMPAIGN_MESSAGES,
  TOO_MANY_RECIPIENTS,
} from '#domain/campaigns/campaign.schema.ts';
import {
  EMAIL_CAMPAIGN_MESSAGES,
  SKIP_REASONS,
  UNCONFIRMED_REASON,
} from '#domain/campaigns/email-campaign.schema.ts';
import { insertContact } from '../../test/contact-factory.ts';
import {
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';
import {
  createTestCertificate,
  startTestSmtpServer,
  type TestCertificate,
} from '../../test/test-smtp-server.ts';

let cert: TestCertificate;
let ctx: TestContext;
let rep: Session;
let smtp: Awaited<ReturnType<typeof startTestSmtpServer>>;

beforeAll(async () => {
  cert = await createTestCertificate();
  smtp = await startTestSmtpServer({ tls: cert });
});
afterAll(() => smtp.close());
beforeEach(async () => {
  ctx = await createTestApp({ smtpTrustedCa: cert.cert });
  rep = await createAccount(ctx, 'user');
  smtp.received.length = 0;
});
afterEach(() => ctx.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, as: Session = rep) =>
  ctx.app.inject({ method, url, headers: asCookie(as), ...(payload ? { payload } : {}) });
const useSmtp = () =>
  call('PUT', '/api/email/configuration', {
    email: 'rep@sales.example',
    server: '127.0.0.1',
    port: smtp.port,
    password: 'app password',
    fromName: 'Rita Rep',
  });
const message = { subject: 'Hello {{firstName}}', body: 'Dear {{fullName}},\nour offer.', perMinute: 600 };
const create = (ids: string[], extra: object = {}) =>
  call('POST', '/api/email-campaigns', { name: 'Spring offer', ...message, selection: { ids }, ...extra });
const settled = async (id: string, ms = 10_000) => {
  const until = Date.now() + ms;
  for (;;) {
    const campaign = (await call('GET', `/api/email-campaigns/${id}`)).json().campaign;
    if (campaign.status !== 'sending' || Date.now() > until) return campaign;
    await new Promise((r) => setTimeout(r, 50));
  }
};
const recipients = async (id: string) =>
  (await call('GET', `/api/email-campaigns/${id}/recipients`)).json().recipients;

describe('e-mail campaigns', () => {
  it("refuses a campaign without a name, contacts or a known merge field, and another user's is not found", async () => {
    const ann = await insertContact(ctx.app, rep, { firstName: 'Ann' });
    const noName = await create([ann.id], { name: '   ' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().issues[0].message).toBe(EMAIL_CAMPAIGN_MESSAGES.nameRequired.description);
    const stranger = await createAccount(ctx, 'user');
    const theirs = await insertContact(ctx.app, stranger);
    const nobody = await create([theirs.id]);
    expect(nobody.statusCode).toBe(400);
    expect(nobody.json().message).toBe(CAMPAIGN_MESSAGES.contactsRequired.description);
    const badField = await create([ann.id], { subject: 'Hi {{nickname}}' });
    expect(badField.statusCode).toBe(400);
    expect(badField.json().issues[0].message).toMatch(/Unknown merge field \{\{nickname\}\}/);
    expect((await ctx.db.admin.query('select count(*)::int as n from email_campaigns')).rows[0].n).toBe(0);

    const made = await create([ann.id]);
    expect(made.statusCode).toBe(201);
    expect(made.json().campaign).toMatchObject({
      status: 'draft',
      type: 'campaign',
      counts: { total: 1, queued: 1 },
    });
    const id = made.json().campaign.id;
    expect((await call('GET', `/api/email-campaigns/${id}`, undefined, stranger)).statusCode).toBe(404);
    expect((await call('POST', `/api/email-campaigns/${id}/send`, undefined, stranger)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/email-campaigns/${id}`, undefined, stranger)).statusCode).toBe(404);
  });

  it('mails each recipient once through the user’s server, merged, with one-click unsubscribe headers', async () => {
    await useSmtp();
    const ann = await insertContact(ctx.app, rep, {
      firstName: 'Ann',
      lastName: 'Able',
      email: 'ann@buyer.example',
    });
    const bo = await insertContact(ctx.app, rep, {
      firstName: 'Bo',
      lastName: 'Best',
      email: 'bo@buyer.example',
    });
    const none = await insertContact(ctx.app, rep, { firstName: 'Cy', email: 'cy@buyer.example' });
    await ctx.db.admin.query(`update contacts set email = '' where id = $1`, [none.id]);
    const id = (await create([ann.id, bo.id, none.id])).json().campaign.id;

    const sent = await call('POST', `/api/email-campaigns/${id}/send`);
    expect(sent.json().campaign.status).toBe('sending');
    const done = await settled(id);
    expect(done).toMatchObject({
      status: 'sent',
      counts: { total: 3, sent: 2, skipped: 1, queued: 0, failed: 0 },
    });
    expect(smtp.received.map((m) => m.to).sort()).toEqual([['ann@buyer.example'], ['bo@buyer.example']]);
    const toAnn = smtp.received.find((m) => m.to[0] === 'ann@buyer.example')!.raw;
    expect(toAnn).toContain('Subject: Hello Ann');
    expect(toAnn).toContain('Dear Ann Able,');
    expect(toAnn).toMatch(/List-Unsubscribe:\s*<http:\/\/[^>]+\/unsubscribe\/[0-9a-f-]{36}>/);
    expect(toAnn).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(await recipients(id)).toEqual([
      expect.objectContaining({ contactId: ann.id, state: 'sent', delivery: 'smtp' }),
      expect.objectContaining({ contactId: bo.id, state: 'sent', delivery: 'smtp' }),
      expect.objectContaining({ contactId: none.id, state: 'skipped', reason: SKIP_REASONS.noEmail }),
    ]);
    const onContact = await ctx.db.admin.query(`select subject from contact_emails where contact_id = $1`, [
      ann.id,
    ]);
    expect(onContact.rows).toEqual([{ subject: 'Hello Ann' }]);

    // Sent: no more edits, no second send.
    expect((await call('PUT', `/api/email-campaigns/${id}`, { name: 'Again', ...message })).statusCode).toBe(
      409,
    );
    expect((await call('POST', `/api/email-campaigns/${id}/send`)).statusCode).toBe(409);
  });

  it('unsubscribes on the POST only (a GET shows the button), and no later campaign mails the address', async () => {
    await useSmtp();
    const ann = await insertContact(ctx.app, rep, { firstName: 'Ann', email: 'Ann@Buyer.example' });
    const first = (await create([ann.id])).json().campaign.id;
    await call('POST', `/api/email-campaigns/${first}/send`);
    await settled(first);
    const link = /List-Unsubscribe:\s*<https?:\/\/[^/]+(\/unsubscribe\/[0-9a-f-]+)>/.exec(
      smtp.received[0]!.raw,
    )![1]!;

    const shown = await ctx.app.inject({ method: 'GET', url: link });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('<button type="submit">Unsubscribe</button>');
    expect((await ctx.db.admin.query('select count(*)::int as n from email_unsubscribes')).rows[0].n).toBe(0);

    // A mail client's one-click POST (RFC 8058) comes with no Origin and no session.
    const clicked = await ctx.app.inject({
      method: 'POST',
      url: link,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(clicked.statusCode).toBe(200);
    expect(clicked.body).toContain('You are unsubscribed');
    expect((await ctx.app.inject({ method: 'GET', url: link })).body).toContain('You are unsubscribed');
    // The contact's page knows (the address is matched whatever its case).
    const onContact = (await call('GET', `/api/contacts/${ann.id}/emails`)).json();
    expect(onContact.unsubscribedAt).toEqual(expect.any(String));
    expect((await ctx.app.inject({ method: 'POST', url: '/unsubscribe/not-a-token' })).statusCode).toBe(404);

    const second = (await create([ann.id], { name: 'Follow-up' })).json().campaign.id;
    await call('POST', `/api/email-campaigns/${second}/send`);
    expect(await settled(second)).toMatchObject({ status: 'sent', counts: { sent: 0, skipped: 1 } });
    expect((await recipients(second))[0]).toMatchObject({
      state: 'skipped',
      reason: expect.stringMatching(/^Unsubscribed from your e-mails on \d\d\/\d\d\/\d{4}$/),
    });
    expect(smtp.received).toHaveLength(1);
  });

  it('never mails again a recipient a dead run left being handed over: it is marked unconfirmed', async () => {
    await useSmtp();
    const ann = await insertContact(ctx.app, rep, { email: 'ann@buyer.example' });
    const bo = await insertContact(ctx.app, rep, { email: 'bo@buyer.example' });
    const id = (await create([ann.id, bo.id])).json().campaign.id;
    // As if a run had marked Ann 'sending' and the server died before recording the outcome.
    await ctx.db.admin.query(
      `update email_campaign_recipients set state = 'sending', attempted_at = now() where contact_id = $1`,
      [ann.id],
    );
    await call('POST', `/api/email-campaigns/${id}/send`);
    expect(await settled(id)).toMatchObject({ status: 'sent', counts: { sent: 1, unconfirmed: 1 } });
    expect(smtp.received.map((m) => m.to)).toEqual([['bo@buyer.example']]);
    expect((await recipients(id))[0]).toMatchObject({ state: 'unconfirmed', reason: UNCONFIRMED_REASON });
  });

  it('pauses, resumes and cancels a send at its pace; a failing server’s words are kept per recipient', async () => {
    const refusing = await startTestSmtpServer({ tls: cert, reject: '550 5.1.1 Mailbox unavailable' });
    try {
      await call('PUT', '/api/email/configuration', {
        email: 'rep@sales.example',
        server: '127.0.0.1',
        port: refusing.port,
        password: 'app password',
      });
      const ids = [];
      for (let i = 0; i < 4; i++)
        ids.push((await insertContact(ctx.app, rep, { email: `p${i}@buyer.example` })).id);
      const id = (await create(ids, { perMinute: 1 })).json().campaign.id;
      expect((await call('POST', `/api/email-campaigns/${id}/pause`)).statusCode).toBe(409);
      await call('POST', `/api/email-campaigns/${id}/send`);
      const until = Date.now() + 10_000;
      while (['queued', 'sending'].includes((await recipients(id))[0].state) && Date.now() < until)
        await new Promise((r) => setTimeout(r, 50));
      expect((await recipients(id))[0]).toMatchObject({
        state: 'failed',
        reason: expect.stringMatching(/550/),
      });
      expect((await call('POST', `/api/email-campaigns/${id}/pause`)).json().campaign.status).toBe('paused');
      expect((await call('POST', `/api/email-campaigns/${id}/resume`)).json().campaign.status).toBe(
        'sending',
      );
      const canceled = await call('POST', `/api/email-campaigns/${id}/cancel`);
      expect(canceled.json().campaign).toMatchObject({ status: 'canceled' });
      expect((await recipients(id)).slice(1).map((r: { reason: string }) => r.reason)).toEqual(
        Array(3).fill(SKIP_REASONS.canceled),
      );
    } finally {
      await refusing.close();
    }
  });

  it('pauses itself, mailing nobody, when the mail server refuses the login; resumes once it is fixed', async () => {
    const guarded = await startTestSmtpServer({
      tls: cert,
      auth: { user: 'rep@sales.example', pass: 'right' },
    });
    try {
      const configure = (password: string) =>
        call('PUT', '/api/email/configuration', {
          email: 'rep@sales.example',
          server: '127.0.0.1',
          port: guarded.port,
          password,
        });
      await configure('wrong');
      const ids = [];
      for (let i = 0; i < 3; i++)
        ids.push((await insertContact(ctx.app, rep, { email: `g${i}@buyer.example` })).id);
      const id = (await create(ids)).json().campaign.id;
      await call('POST', `/api/email-campaigns/${id}/send`);
      const paused = await settled(id);
      expect(paused).toMatchObject({
        status: 'paused',
        pauseReason: expect.stringMatching(/refused the login/),
        counts: { queued: 3, failed: 0 },
      });
      expect(guarded.received).toHaveLength(0);

      await configure('right');
      const resumed = await call('POST', `/api/email-campaigns/${id}/resume`);
      expect(resumed.json().campaign.pauseReason).toBeNull();
      expect(await settled(id)).toMatchObject({ status: 'sent', counts: { sent: 3 } });
      expect(guarded.received).toHaveLength(3);
    } finally {
      await guarded.close();
    }
  });

  it('sends once when Send is pressed fifty times at once: one accepted, each recipient mailed once', async () => {
    await useSmtp();
    const ids = [];
    for (let i = 0; i < 3; i++)
      ids.push((await insertContact(ctx.app, rep, { email: `f${i}@buyer.example` })).id);
    const id = (await create(ids)).json().campaign.id;
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        call('POST', `/api/email-campaigns/${id}/send`).then((r) => r.statusCode),
      ),
    );
    expect(answers.filter((s) => s === 200)).toHaveLength(1);
    expect(answers.filter((s) => s === 409)).toHaveLength(49);
    expect(await settled(id)).toMatchObject({ status: 'sent', counts: { sent: 3 } });
    expect(smtp.received.map((m) => m.to[0]).sort()).toEqual([
      'f0@buyer.example',
      'f1@buyer.example',
      'f2@buyer.example',
    ]);
  });

  it('saves to the outbox when no mail server is configured, and says so per recipient', async () => {
    const ann = await insertContact(ctx.app, rep, { email: 'ann@buyer.example' });
    const id = (await create([ann.id])).json().campaign.id;
    await call('POST', `/api/email-campaigns/${id}/send`);
    expect(await settled(id)).toMatchObject({ status: 'sent', counts: { sent: 1 } });
    expect((await recipients(id))[0]).toMatchObject({ state: 'sent', delivery: 'outbox' });
    const saved = await ctx.db.admin.query(`select delivery from contact_emails where contact_id = $1`, [
      ann.id,
    ]);
    expect(saved.rows).toEqual([{ delivery: 'outbox' }]);
  });

  it('refuses a selection of more than 100,000 contacts with a clear message, writing nothing', async () => {
    await ctx.db.admin.query(
      `insert into contacts (user_id, first_name, last_name, email)
       select $1, 'Many' || g, 'Big', 'many' || g || '@buyer.example' from generate_series(1, ${CAMPAIGN_MAX_RECIPIENTS + 1}) g`,
      [rep.userId],
    );
    const refused = await call('POST', '/api/email-campaigns', {
      name: 'Everyone',
      ...message,
      selection: { allMatching: {} },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(TOO_MANY_RECIPIENTS);
    expect((await ctx.db.admin.query('select count(*)::int as n from email_campaigns')).rows[0].n).toBe(0);
  }, 60_000);

  it('edits a draft in one transaction: name, message, contacts added and removed; never left empty', async () => {
    const ann = await insertContact(ctx.app, rep, { firstName: 'Ann' });
    const bo = await insertContact(ctx.app, rep, { firstName: 'Bo' });
    const id = (await create([ann.id])).json().campaign.id;
    const saved = await call('PUT', `/api/email-campaigns/${id}`, {
      name: 'Renamed',
      ...message,
      add: { ids: [bo.id] },
      remove: [ann.id],
    });
    expect(saved.json().campaign).toMatchObject({ name: 'Renamed', counts: { total: 1 } });
    const emptied = await call('PUT', `/api/email-campaigns/${id}`, {
      name: 'Empty',
      ...message,
      remove: [bo.id],
    });
    expect(emptied.statusCode).toBe(400);
    expect((await call('GET', `/api/email-campaigns/${id}`)).json().campaign).toMatchObject({
      name: 'Renamed',
      counts: { total: 1 },
    });
    expect((await call('DELETE', `/api/email-campaigns/${id}`)).statusCode).toBe(204);
    expect((await call('GET', '/api/email-campaigns')).json().campaigns).toEqual([]);
  });
});
