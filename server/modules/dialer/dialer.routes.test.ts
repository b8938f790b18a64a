import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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
const servers: { close: () => Promise<void> }[] = [];

beforeAll(async () => {
  cert = await createTestCertificate();
});
beforeEach(async () => {
  ctx = await createTestApp({ smtpTrustedCa: cert.cert });
  rep = await createAccount(ctx, 'user');
});
afterEach(() => ctx.close());
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, as: Session = rep) =>
  ctx.app.inject({ method, url, headers: asCookie(as), ...(payload ? { payload } : {}) });
const addContact = (payload: object, as: Session = rep) => call('POST', '/api/dialer/contacts', payload, as);
const count = async (table: string) =>
  (await ctx.db.admin.query(`select count(*)::int as n from ${table}`)).rows[0].n as number;
const template = async (as: Session = rep) =>
  (
    await call(
      'POST',
      '/api/email/templates',
      {
        name: 'Follow-up',
        subject: 'Nice talking, {{firstName}}',
        content: 'Hi {{firstName}} at {{company}}',
      },
      as,
    )
  ).json().template as { id: string };

describe("the dialer's Add Contact", () => {
  it('saves a phone-only contact, synced and in the default queue', async () => {
    const added = await addContact({
      firstName: 'Pia',
      lastName: 'Phone',
      phone: '(555) 010-0042',
      company: 'Acme',
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({
      contact: { firstName: 'Pia', lastName: 'Phone', email: '', phone: '(555) 010-0042', company: 'Acme' },
      email: null,
    });
    const id = added.json().contact.id;
    const member = await ctx.db.admin.query(
      `select q.queue_name as name from queue_members m join power_dialer_queues q on q.id = m.queue_id
        where m.contact_id = $1`,
      [id],
    );
    expect(member.rows).toEqual([{ name: 'All Synced Contacts' }]);
    const listed = (await call('GET', '/api/contacts?search=Pia')).json().contacts;
    expect(listed.map((c: { id: string }) => c.id)).toEqual([id]);
  });

  it('refuses with the spec’s messages, in its order, and saves nothing', async () => {
    const cases: [object, string][] = [
      [
        { firstName: 'Ann', phone: '5550100042' },
        'Required fields missing: First name and last name are required',
      ],
      [
        { firstName: 'Ann', lastName: 'Lee' },
        'Contact information required: Either phone number or email is required',
      ],
      [
        { firstName: 'Ann', lastName: 'Lee', phone: '5550100042', sendEmail: true },
        'Email required: Email address is required to send an email',
      ],
      [
        { firstName: 'Ann', lastName: 'Lee', phone: '12' },
        'Invalid phone number: Enter a phone number with 7 to 15 digits',
      ],
      [{ firstName: 'Ann', lastName: 'Lee', email: 'ann@' }, 'Invalid email: Enter a valid email address'],
      [
        { firstName: 'Ann', lastName: 'Lee', email: 'ann@lee.example', sendEmail: true },
        'Template required: Choose a template or a sequence for the email',
      ],
    ];
    for (const [payload, message] of cases) {
      const refused = await addContact(payload);
      expect(refused.statusCode, message).toBe(400);
      expect(refused.json().message).toBe(message);
    }
    expect(await count('contacts')).toBe(0);
  });

  it('sends the chosen template, merged for the new contact, to the outbox when no mail server is set', async () => {
    const tpl = await template();
    const added = await addContact({
      firstName: 'Eve',
      lastName: 'Mail',
      email: 'eve@mail.example',
      company: 'Mailco',
      sendEmail: true,
      templateId: tpl.id,
    });
    expect(added.statusCode).toBe(201);
    expect(added.json().email).toMatchObject({
      delivery: 'outbox',
      toAddress: 'eve@mail.example',
      subject: 'Nice talking, Eve',
      content: 'Hi Eve at Mailco',
    });
    const outbox = (await call('GET', '/api/email/outbox')).json().messages;
    expect(outbox).toMatchObject([{ subject: 'Nice talking, Eve', contactName: 'Eve Mail' }]);
  });

  it('saves nothing when the mail server refuses, and never uses another user’s template', async () => {
    const server = await startTestSmtpServer({ tls: cert, reject: 'Mailbox unavailable' });
    servers.push(server);
    await call('PUT', '/api/email/configuration', {
      email: 'rep@sales.example',
      server: '127.0.0.1',
      port: server.port,
      password: 'app password',
      fromName: 'Rita Rep',
    });
    const tpl = await template();
    const payload = { firstName: 'Ray', lastName: 'Refused', email: 'ray@r.example', sendEmail: true };
    const refused = await addContact({ ...payload, templateId: tpl.id });
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toMatchObject({
      code: 'MAIL_FAILED',
      message: expect.stringContaining('Mailbox unavailable'),
    });
    expect(await count('contacts')).toBe(0);
    expect(await count('contact_emails')).toBe(0);

    const other = await createAccount(ctx, 'user');
    const foreign = await addContact({ ...payload, templateId: (await template(other)).id });
    expect(foreign.statusCode).toBe(404);
    expect(await count('contacts')).toBe(0);
  });

  it('enrols the new contact in the chosen sequence instead of sending a template; a canceled one saves nothing', async () => {
    const existing = (
      await call('POST', '/api/contacts', { firstName: 'Old', lastName: 'Timer', email: 'old@t.example' })
    ).json().contact;
    const sequence = (
      await call('POST', '/api/email-sequences', {
        name: 'Onboarding',
        steps: [{ subject: 'Welcome {{firstName}}', body: 'Hello', delayDays: 1 }],
        selection: { ids: [existing.id] },
      })
    ).json().campaign;
    await call('POST', `/api/email-campaigns/${sequence.id}/send`);
    const tpl = await template();
    const both = await addContact({
      firstName: 'Sue',
      lastName: 'Seq',
      email: 'sue@seq.example',
      sendEmail: true,
      templateId: tpl.id,
      sequenceId: sequence.id,
    });
    expect(both.statusCode).toBe(400);

    const added = await addContact({
      firstName: 'Sue',
      lastName: 'Seq',
      email: 'sue@seq.example',
      sendEmail: true,
      sequenceId: sequence.id,
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ email: null, sequence: { id: sequence.id, name: 'Onboarding' } });
    const members = (await call('GET', `/api/email-campaigns/${sequence.id}/recipients`)).json().recipients;
    expect(members).toHaveLength(2);
    expect(members[1]).toMatchObject({ contactId: added.json().contact.id, state: 'queued', stepsSent: 0 });
    expect(new Date(members[1].dueAt).getTime()).toBe(ctx.clock.now().getTime() + 24 * 3600 * 1000);

    await call('POST', `/api/email-campaigns/${sequence.id}/cancel`);
    const late = await addContact({
      firstName: 'Tim',
      lastName: 'Late',
      email: 'tim@seq.example',
      sendEmail: true,
      sequenceId: sequence.id,
    });
    expect(late.statusCode).toBe(409);
    expect(await count("contacts where first_name = 'Tim'")).toBe(0);
    const foreign = await addContact(
      {
        firstName: 'Ima',
        lastName: 'Stranger',
        email: 'ima@s.example',
        sendEmail: true,
        sequenceId: sequence.id,
      },
      await createAccount(ctx, 'user'),
    );
    expect(foreign.statusCode).toBe(404);
  });
});
