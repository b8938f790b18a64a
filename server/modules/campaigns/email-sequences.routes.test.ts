import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CAMPAIGN_MESSAGES } from '#domain/campaigns/campaign.schema.ts';
import { SKIP_REASONS } from '#domain/campaigns/email-campaign.schema.ts';
import { DAY_MS, SEQUENCE_EXIT_REASONS, SEQUENCE_MESSAGES } from '#domain/campaigns/email-sequence.schema.ts';
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
  await call('PUT', '/api/email/configuration', {
    email: 'rep@sales.example',
    server: '127.0.0.1',
    port: smtp.port,
    password: 'app password',
    fromName: 'Rita Rep',
  });
});
afterEach(() => ctx.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, as: Session = rep) =>
  ctx.app.inject({ method, url, headers: asCookie(as), ...(payload ? { payload } : {}) });

/** Welcome at once, a follow-up two days later, a last word three days after that. */
const THREE_STEPS = [
  { subject: 'Welcome {{firstName}}', body: 'Hello {{fullName}}, welcome.', delayDays: 0 },
  { subject: 'Following up, {{firstName}}', body: 'Did you have a look?', delayDays: 2 },
  { subject: 'Last word', body: 'We will not write again.', delayDays: 3 },
];
const create = (ids: string[], extra: object = {}) =>
  call('POST', '/api/email-sequences', {
    name: 'Onboarding',
    perMinute: 3000,
    steps: THREE_STEPS,
    selection: { ids },
    ...extra,
  });
const campaign = async (id: string) => (await call('GET', `/api/email-campaigns/${id}`)).json().campaign;
const recipients = async (id: string) =>
  (await call('GET', `/api/email-campaigns/${id}/recipients`)).json().recipients;
const subjectsTo = (address: string) =>
  smtp.received.filter((m) => m.to[0] === address).map((m) => /Subject: (.*)/.exec(m.raw)![1]!.trim());

/** Waits until the mail server has received `count` e-mails in all (or the time is up). */
async function receivedCount(count: number, ms = 10_000) {
  const until = Date.now() + ms;
  while (smtp.received.length < count && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  // A little longer, so an e-mail too many would show.
  await new Promise((r) => setTimeout(r, 300));
  return smtp.received.length;
}

/** Days pass: the app's clock moves on, and the job waiting for that day runs now. */
async function daysPass(days: number) {
  ctx.clock.advance(days * DAY_MS);
  await ctx.db.admin.query(`update graphile_worker._private_jobs set run_at = now() where locked_at is null`);
}

describe('e-mail sequences', () => {
  it("refuses a sequence without a name, e-mails or contacts in the spec's words; another user's is not found", async () => {
    const ann = await insertContact(ctx.app, rep, { firstName: 'Ann', email: 'ann@buyer.example' });
    const noName = await create([ann.id], { name: '  ' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().issues[0].message).toBe(SEQUENCE_MESSAGES.nameRequired.description);
    const noSteps = await create([ann.id], { steps: [] });
    expect(noSteps.json().issues[0].message).toBe(SEQUENCE_MESSAGES.stepsRequired);
    const badDelay = await create([ann.id], { steps: [{ ...THREE_STEPS[0], delayDays: -1 }] });
    expect(badDelay.statusCode).toBe(400);
    const badField = await create([ann.id], { steps: [{ ...THREE_STEPS[0], body: 'Hi {{nick}}' }] });
    expect(badField.json().issues[0]).toMatchObject({
      path: expect.stringMatching(/steps\.0\.body$/),
      message: expect.stringMatching(/Unknown merge field \{\{nick\}\}/),
    });
    const stranger = await createAccount(ctx, 'user');
    const theirs = await insertContact(ctx.app, stranger);
    const nobody = await create([theirs.id]);
    expect(nobody.json().message).toBe(CAMPAIGN_MESSAGES.contactsRequired.description);
    expect((await ctx.db.admin.query('select count(*)::int as n from email_sequence_steps')).rows[0].n).toBe(
      0,
    );

    const made = await create([ann.id]);
    expect(made.statusCode).toBe(201);
    expect(made.json().campaign).toMatchObject({
      type: 'sequence',
      status: 'draft',
      stepCount: 3,
      steps: THREE_STEPS,
      counts: { total: 1, queued: 1 },
    });
    const id = made.json().campaign.id;
    expect((await call('GET', `/api/email-campaigns/${id}`, undefined, stranger)).statusCode).toBe(404);
    expect(
      (await call('POST', `/api/email-sequences/${id}/enroll`, { contactId: theirs.id }, stranger))
        .statusCode,
    ).toBe(404);
    // Its own contact, someone else's sequence; and the other way round.
    expect(
      (await call('POST', `/api/email-sequences/${id}/enroll`, { contactId: theirs.id })).statusCode,
    ).toBe(404);
    // A sequence is saved as a sequence; a one-time campaign's message route refuses it.
    const asCampaign = await call('PUT', `/api/email-campaigns/${id}`, {
      name: 'x',
      subject: 's',
      body: 'b',
    });
    expect(asCampaign.statusCode).toBe(409);
    const list = (await call('GET', '/api/email-campaigns')).json().campaigns;
    expect(list[0]).toMatchObject({ id, type: 'sequence', stepCount: 3 });
    expect(list[0].steps).toBeUndefined();
  });

  it('sends each e-mail of the sequence on its day, once per contact, then finishes', async () => {
    const ann = await insertContact(ctx.app, rep, {
      firstName: 'Ann',
      lastName: 'Able',
      email: 'ann@b.example',
    });
    const bo = await insertContact(ctx.app, rep, {
      firstName: 'Bo',
      lastName: 'Best',
      email: 'bo@b.example',
    });
    const id = (await create([ann.id, bo.id])).json().campaign.id;
    const started = await call('POST', `/api/email-campaigns/${id}/send`);
    expect(started.json().campaign.status).toBe('sending');

    expect(await receivedCount(2)).toBe(2);
    expect(subjectsTo('ann@b.example')).toEqual(['Welcome Ann']);
    const waiting = await recipients(id);
    expect(waiting[0]).toMatchObject({ state: 'queued', stepsSent: 1 });
    expect(new Date(waiting[0].dueAt).getTime()).toBe(ctx.clock.now().getTime() + 2 * DAY_MS);
    expect(await campaign(id)).toMatchObject({ status: 'sending', counts: { queued: 2 } });

    // A day later nothing is due yet.
    await daysPass(1);
    expect(await receivedCount(3, 1_000)).toBe(2);
    await daysPass(1);
    expect(await receivedCount(4)).toBe(4);
    expect(subjectsTo('bo@b.example')).toEqual(['Welcome Bo', 'Following up, Bo']);
    await daysPass(3);
    expect(await receivedCount(6)).toBe(6);
    expect(subjectsTo('ann@b.example')).toEqual(['Welcome Ann', 'Following up, Ann', 'Last word']);
    const unsub = smtp.received.find((m) => /Subject: Last word/.test(m.raw))!.raw;
    expect(unsub).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');

    const finished = await campaign(id);
    expect(finished).toMatchObject({ status: 'sent', counts: { total: 2, sent: 2, queued: 0 } });
    expect(await recipients(id)).toEqual([
      expect.objectContaining({ contactId: ann.id, state: 'sent', stepsSent: 3, dueAt: null }),
      expect.objectContaining({ contactId: bo.id, state: 'sent', stepsSent: 3, dueAt: null }),
    ]);
    const onContact = await ctx.db.admin.query(
      `select subject from contact_emails where contact_id = $1 order by sent_at`,
      [ann.id],
    );
    expect(onContact.rows.map((r) => r.subject)).toEqual(['Welcome Ann', 'Following up, Ann', 'Last word']);

    // A contact who joins the finished sequence starts it again, from its first e-mail.
    const cy = await insertContact(ctx.app, rep, { firstName: 'Cy', email: 'cy@b.example' });
    const joined = await call('POST', `/api/email-sequences/${id}/enroll`, { contactId: cy.id });
    expect(joined.json()).toEqual({ added: 1 });
    expect((await call('POST', `/api/email-sequences/${id}/enroll`, { contactId: cy.id })).json()).toEqual({
      added: 0,
    });
    expect(await receivedCount(7)).toBe(7);
    expect(subjectsTo('cy@b.example')).toEqual(['Welcome Cy']);
    expect((await campaign(id)).status).toBe('sending');
  });

  it('a contact leaves on unsubscribe, on a do-not-call or not-interested disposition, and when removed', async () => {
    const people = await Promise.all(
      ['ann', 'bo', 'cy', 'di', 'ed'].map((n) =>
        insertContact(ctx.app, rep, { firstName: n, email: `${n}@b.example`, phone: null }),
      ),
    );
    const [ann, bo, cy, di, ed] = people;
    const id = (await create(people.map((p) => p.id))).json().campaign.id;
    await call('POST', `/api/email-campaigns/${id}/send`);
    expect(await receivedCount(5)).toBe(5);

    const link = /List-Unsubscribe:\s*<https?:\/\/[^/]+(\/unsubscribe\/[0-9a-f-]+)>/.exec(
      smtp.received.find((m) => m.to[0] === 'ann@b.example')!.raw,
    )![1]!;
    expect((await ctx.app.inject({ method: 'POST', url: link })).statusCode).toBe(200);
    for (const [who, disposition] of [
      [bo, 'do-not-call'],
      [cy, 'not-interested'],
    ] as const)
      expect((await call('POST', '/api/dispositions', { contactId: who!.id, disposition })).statusCode).toBe(
        201,
      );
    const left = await call('POST', `/api/email-sequences/${id}/leave`, { contactIds: [di!.id] });
    expect(left.json()).toEqual({ left: 1 });

    const states = Object.fromEntries(
      (await recipients(id)).map((r: { contactId: string }) => [r.contactId, r]),
    );
    expect(states[ann!.id]).toMatchObject({
      state: 'skipped',
      reason: SKIP_REASONS.unsubscribed,
      stepsSent: 1,
    });
    expect(states[bo!.id]).toMatchObject({ state: 'skipped', reason: SEQUENCE_EXIT_REASONS.doNotCall });
    expect(states[cy!.id]).toMatchObject({ state: 'skipped', reason: SEQUENCE_EXIT_REASONS.notInterested });
    expect(states[di!.id]).toMatchObject({ state: 'skipped', reason: SEQUENCE_EXIT_REASONS.removed });
    expect(states[ed!.id]).toMatchObject({ state: 'queued', stepsSent: 1 });

    await daysPass(2);
    expect(await receivedCount(6)).toBe(6);
    await daysPass(3);
    expect(await receivedCount(7)).toBe(7);
    expect(smtp.received.slice(5).map((m) => m.to[0])).toEqual(['ed@b.example', 'ed@b.example']);
    expect(await campaign(id)).toMatchObject({ status: 'sent', counts: { sent: 1, skipped: 4 } });
  });

  it('an address that unsubscribed before its next e-mail is skipped when it is due, even if it is still queued', async () => {
    const ann = await insertContact(ctx.app, rep, { firstName: 'Ann', email: 'Ann@B.example' });
    const id = (await create([ann.id])).json().campaign.id;
    await call('POST', `/api/email-campaigns/${id}/send`);
    expect(await receivedCount(1)).toBe(1);
    // As if the unsubscribe came through another sender's path: only the list knows.
    await ctx.db.admin.query(`insert into email_unsubscribes (user_id, email) values ($1, 'ann@b.example')`, [
      rep.userId,
    ]);
    await daysPass(2);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(smtp.received).toHaveLength(1);
    expect((await recipients(id))[0]).toMatchObject({
      state: 'skipped',
      reason: expect.stringMatching(/^Unsubscribed from your e-mails on /),
    });
  });

  it('pauses and resumes; a paused sequence sends nothing due until resumed; cancel ends it for everyone', async () => {
    const ann = await insertContact(ctx.app, rep, { firstName: 'Ann', email: 'ann@b.example' });
    const id = (await create([ann.id])).json().campaign.id;
    await call('POST', `/api/email-campaigns/${id}/send`);
    expect(await receivedCount(1)).toBe(1);
    expect((await call('POST', `/api/email-campaigns/${id}/pause`)).json().campaign.status).toBe('paused');
    // A contact joining a paused sequence waits for the resume.
    const bo = await insertContact(ctx.app, rep, { firstName: 'Bo', email: 'bo@b.example' });
    expect((await call('POST', `/api/email-campaigns/${id}/recipients`, { ids: [bo.id] })).json()).toEqual({
      added: 1,
    });
    await daysPass(2);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(smtp.received).toHaveLength(1);
    await call('POST', `/api/email-campaigns/${id}/resume`);
    expect(await receivedCount(3)).toBe(3);
    expect(subjectsTo('ann@b.example')).toEqual(['Welcome Ann', 'Following up, Ann']);
    expect(subjectsTo('bo@b.example')).toEqual(['Welcome Bo']);

    expect((await call('POST', `/api/email-campaigns/${id}/cancel`)).json().campaign.status).toBe('canceled');
    expect((await recipients(id)).map((r: { reason: string }) => r.reason)).toEqual([
      SKIP_REASONS.canceled,
      SKIP_REASONS.canceled,
    ]);
    const late = await call('POST', `/api/email-sequences/${id}/enroll`, {
      contactId: (await insertContact(ctx.app, rep)).id,
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(SEQUENCE_MESSAGES.notEnrollable);
    await daysPass(10);
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.received).toHaveLength(3);
  });

  it('a contact enrolled fifty times at once joins once and gets each e-mail once', async () => {
    const ann = await insertContact(ctx.app, rep, { firstName: 'Ann', email: 'ann@b.example' });
    const bo = await insertContact(ctx.app, rep, { firstName: 'Bo', email: 'bo@b.example' });
    const id = (await create([ann.id])).json().campaign.id;
    await call('POST', `/api/email-campaigns/${id}/send`);
    expect(await receivedCount(1)).toBe(1);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        call('POST', `/api/email-sequences/${id}/enroll`, { contactId: bo.id }).then((r) => r.json().added),
      ),
    );
    expect(answers.filter((n) => n === 1)).toHaveLength(1);
    expect(answers.filter((n) => n === 0)).toHaveLength(49);
    expect(await receivedCount(2)).toBe(2);
    expect(subjectsTo('bo@b.example')).toEqual(['Welcome Bo']);
  });

  it('edits a draft (e-mails replaced, contacts added and removed) and refuses edits once started', async () => {
    const ann = await insertContact(ctx.app, rep, { firstName: 'Ann', email: 'ann@b.example' });
    const bo = await insertContact(ctx.app, rep, { firstName: 'Bo', email: 'bo@b.example' });
    const made = (await create([ann.id], { description: '  New customers, first month  ' })).json().campaign;
    expect(made.description).toBe('New customers, first month');
    const id = made.id;
    const saved = await call('PUT', `/api/email-sequences/${id}`, {
      name: 'Onboarding v2',
      description: 'Customers of the spring offer',
      perMinute: 100,
      steps: [THREE_STEPS[0], THREE_STEPS[2]],
      add: { ids: [bo.id] },
      remove: [ann.id],
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().campaign).toMatchObject({
      name: 'Onboarding v2',
      description: 'Customers of the spring offer',
      stepCount: 2,
      steps: [THREE_STEPS[0], THREE_STEPS[2]],
      counts: { total: 1 },
    });
    // Everything or nothing: a save that would leave nobody changes nothing.
    const empty = await call('PUT', `/api/email-sequences/${id}`, {
      name: 'Nobody',
      steps: THREE_STEPS,
      remove: [bo.id],
    });
    expect(empty.statusCode).toBe(400);
    expect((await campaign(id)).name).toBe('Onboarding v2');

    await call('POST', `/api/email-campaigns/${id}/send`);
    const late = await call('PUT', `/api/email-sequences/${id}`, { name: 'Late', steps: THREE_STEPS });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(SEQUENCE_MESSAGES.notEditable);
  });

  it('never mails again an e-mail a dead run left being handed over: that contact is unconfirmed and stops there', async () => {
    const ann = await insertContact(ctx.app, rep, { firstName: 'Ann', email: 'ann@b.example' });
    const bo = await insertContact(ctx.app, rep, { firstName: 'Bo', email: 'bo@b.example' });
    const id = (await create([ann.id, bo.id])).json().campaign.id;
    await call('POST', `/api/email-campaigns/${id}/send`);
    expect(await receivedCount(2)).toBe(2);
    // As if a run had marked Ann's second e-mail 'sending' and died before recording the outcome.
    await ctx.db.admin.query(
      `update email_campaign_recipients set state = 'sending', attempted_at = now() where contact_id = $1`,
      [ann.id],
    );
    await daysPass(2);
    expect(await receivedCount(3)).toBe(3);
    expect(subjectsTo('ann@b.example')).toEqual(['Welcome Ann']);
    expect((await recipients(id))[0]).toMatchObject({
      state: 'unconfirmed',
      reason: expect.stringMatching(/^E-mail 2: The server stopped/),
    });
  });
});
