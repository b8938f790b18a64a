import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';
import { insertContact } from '../../test/contact-factory.ts';
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

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, as: Session = rep) =>
  ctx.app.inject({ method, url, headers: asCookie(as), ...(payload ? { payload } : {}) });

async function smtpServer(options: Parameters<typeof startTestSmtpServer>[0] = {}) {
  const server = await startTestSmtpServer({ tls: cert, ...options });
  servers.push(server);
  return server;
}
const configFor = (port: number, password = 'app password') => ({
  email: 'rep@sales.example',
  server: '127.0.0.1',
  port,
  password,
  fromName: 'Rita Rep',
});

describe('e-mail configuration', () => {
  it('stores the settings with the password sealed, never returns it, and keeps it when left empty', async () => {
    expect((await call('GET', '/api/email/configuration')).json()).toEqual({ configuration: null });
    const missing = await call('PUT', '/api/email/configuration', { ...configFor(587), password: '' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Password is required');

    const saved = await call('PUT', '/api/email/configuration', configFor(587, 'secret-pass'));
    expect(saved.statusCode).toBe(200);
    expect(saved.json().configuration).toMatchObject({
      email: 'rep@sales.example',
      server: '127.0.0.1',
      port: 587,
      fromName: 'Rita Rep',
      useSsl: true,
      hasPassword: true,
    });
    expect(saved.body).not.toContain('secret-pass');
    const stored = await ctx.db.admin.query('select password_encrypted from email_configurations');
    expect(stored.rows[0].password_encrypted).toMatch(/^v1:/);
    expect(stored.rows[0].password_encrypted).not.toContain('secret-pass');

    const kept = await call('PUT', '/api/email/configuration', { ...configFor(2525), password: undefined });
    expect(kept.statusCode).toBe(200);
    const after = await ctx.db.admin.query('select password_encrypted, port from email_configurations');
    expect(after.rows[0]).toEqual({ password_encrypted: stored.rows[0].password_encrypted, port: 2525 });

    const other = await createAccount(ctx, 'user');
    expect((await call('GET', '/api/email/configuration', undefined, other)).json()).toEqual({
      configuration: null,
    });
    expect((await call('DELETE', '/api/email/configuration', undefined, other)).statusCode).toBe(404);
    expect((await call('DELETE', '/api/email/configuration')).statusCode).toBe(204);
    expect((await call('GET', '/api/email/configuration')).json()).toEqual({ configuration: null });
  });

  it('refuses bad settings with the field at fault, changing nothing', async () => {
    const bad = await call('PUT', '/api/email/configuration', {
      email: 'not-an-address',
      server: 'smtp example',
      port: 70000,
      password: 'x',
    });
    expect(bad.statusCode).toBe(400);
    const paths = bad.json().issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['body.email', 'body.server', 'body.port']));
    expect((await ctx.db.admin.query('select count(*)::int as n from email_configurations')).rows[0].n).toBe(
      0,
    );
  });

  it('sends a test e-mail with the settings in the form, and gives the server’s reason when it fails', async () => {
    const server = await smtpServer({ auth: { user: 'rep@sales.example', pass: 'app password' } });
    const ok = await call('POST', '/api/email/configuration/test', configFor(server.port));
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ sentTo: 'rep@sales.example' });
    expect(server.received[0]?.to).toEqual(['rep@sales.example']);

    const wrong = await call('POST', '/api/email/configuration/test', configFor(server.port, 'wrong'));
    expect(wrong.statusCode).toBe(502);
    expect(wrong.json()).toMatchObject({ code: 'MAIL_FAILED' });
    expect(wrong.json().message).toMatch(/refused the login: 535/);
    expect((await ctx.db.admin.query('select count(*)::int as n from email_configurations')).rows[0].n).toBe(
      0,
    );
  });
});

describe('mail hosts the operator allows (SMTP_ALLOWED_HOSTS)', () => {
  it('refuses any other mail server for saving and for the test, before contacting it', async () => {
    const limited = await createTestApp({ smtpTrustedCa: cert.cert, smtpAllowedHosts: ['smtp.example.com'] });
    try {
      const person = await createAccount(limited, 'user');
      const server = await smtpServer();
      for (const url of ['/api/email/configuration', '/api/email/configuration/test']) {
        const refused = await limited.app.inject({
          method: url.endsWith('test') ? 'POST' : 'PUT',
          url,
          headers: asCookie(person),
          payload: configFor(server.port),
        });
        expect(refused.statusCode, url).toBe(400);
        expect(refused.json().issues).toEqual([
          {
            path: 'body.server',
            message: expect.stringMatching(/only through these mail servers: smtp.example.com/),
          },
        ]);
      }
      expect(server.received).toHaveLength(0);
      expect(
        (await limited.db.admin.query('select count(*)::int as n from email_configurations')).rows[0].n,
      ).toBe(0);
    } finally {
      await limited.close();
    }
  });
});

describe('e-mail templates', () => {
  const template = (name: string, extra: object = {}) => ({
    name,
    subject: 'Hi {{firstName}}',
    content: 'Hello {{ firstName }} at {{company}}',
    ...extra,
  });

  it('creates, lists by name, keeps one default, updates and deletes', async () => {
    const b = (await call('POST', '/api/email/templates', template('Beta', { isDefault: true }))).json()
      .template;
    const a = (await call('POST', '/api/email/templates', template('alpha', { isDefault: true }))).json()
      .template;
    const list = (await call('GET', '/api/email/templates')).json().templates;
    expect(list.map((t: { name: string; isDefault: boolean }) => [t.name, t.isDefault])).toEqual([
      ['alpha', true],
      ['Beta', false],
    ]);
    const updated = await call(
      'PUT',
      `/api/email/templates/${b.id}`,
      template('Beta 2', { isDefault: true }),
    );
    expect(updated.json().template).toMatchObject({ name: 'Beta 2', isDefault: true });
    const defaults = (await call('GET', '/api/email/templates'))
      .json()
      .templates.filter((t: { isDefault: boolean }) => t.isDefault);
    expect(defaults.map((t: { id: string }) => t.id)).toEqual([b.id]);
    expect((await call('DELETE', `/api/email/templates/${a.id}`)).statusCode).toBe(204);
    expect((await call('GET', '/api/email/templates')).json().templates).toHaveLength(1);
  });

  it('refuses a missing field, an unknown merge field and a duplicate name', async () => {
    const empty = await call('POST', '/api/email/templates', { name: '', subject: '', content: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().issues.map((i: { message: string }) => i.message)).toEqual(
      expect.arrayContaining(['Template name is required', 'Subject is required', 'Content is required']),
    );
    const unknown = await call('POST', '/api/email/templates', template('X', { content: 'Hi {{nickname}}' }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().issues[0].message).toMatch(/^Unknown merge field \{\{nickname\}\}/);
    await call('POST', '/api/email/templates', template('Intro'));
    const dup = await call('POST', '/api/email/templates', template('INTRO'));
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('A template with this name already exists');
  });

  it("never reaches another user's template", async () => {
    const mine = (await call('POST', '/api/email/templates', template('Mine'))).json().template;
    const other = await createAccount(ctx, 'user');
    expect((await call('GET', '/api/email/templates', undefined, other)).json().templates).toEqual([]);
    expect((await call('PUT', `/api/email/templates/${mine.id}`, template('Taken'), other)).statusCode).toBe(
      404,
    );
    expect((await call('DELETE', `/api/email/templates/${mine.id}`, undefined, other)).statusCode).toBe(404);
    expect((await call('GET', '/api/email/templates')).json().templates[0].name).toBe('Mine');
  });
});

describe('sending an e-mail to a contact', () => {
  it('without a mail server, keeps it in the outbox and records it against the contact', async () => {
    const contact = await insertContact(ctx.app, rep, { firstName: 'Lena', email: 'lena@lead.example' });
    const sent = await call('POST', `/api/contacts/${contact.id}/emails`, {
      subject: 'Hello {{firstName}}',
      content: 'Dear {{fullName}},\nthanks.',
    });
    expect(sent.statusCode).toBe(201);
    expect(sent.json().email).toMatchObject({
      delivery: 'outbox',
      toAddress: 'lena@lead.example',
      fromAddress: rep.email,
      subject: 'Hello Lena',
      direction: 'outbound',
    });
    expect(sent.json().email.content).toBe(`Dear Lena ${contact.lastName},\nthanks.`);
    const emails = (await call('GET', `/api/contacts/${contact.id}/emails`)).json().emails;
    expect(emails).toHaveLength(1);
    const outbox = (await call('GET', '/api/email/outbox')).json();
    expect(outbox.messages[0]).toMatchObject({
      subject: 'Hello Lena',
      contactName: `Lena ${contact.lastName}`,
    });
    expect(outbox.hasMore).toBe(false);
    const record = (await call('GET', `/api/contacts/${contact.id}/consent/record`)).json();
    expect(record.entries).toMatchObject([{ channel: 'email', outcome: 'allowed' }]);
  });

  it('through the configured server: the message that arrives has the right sender, recipient, subject and body', async () => {
    const server = await smtpServer({ auth: { user: 'rep@sales.example', pass: 'app password' } });
    await call('PUT', '/api/email/configuration', configFor(server.port));
    const contact = await insertContact(ctx.app, rep, {
      firstName: 'Omar',
      company: 'Orbit',
      email: 'omar@orbit.example',
    });
    const tpl = (
      await call('POST', '/api/email/templates', {
        name: 'Intro',
        subject: 'Quick question, {{firstName}}',
        content: 'Hi {{firstName}}, how is {{company}}?',
      })
    ).json().template;
    const sent = await call('POST', `/api/contacts/${contact.id}/emails`, {
      subject: tpl.subject,
      content: tpl.content,
      templateId: tpl.id,
    });
    expect(sent.statusCode).toBe(201);
    expect(sent.json().email.delivery).toBe('smtp');
    expect(server.received).toHaveLength(1);
    const [got] = server.received;
    expect(got!.from).toBe('rep@sales.example');
    expect(got!.to).toEqual(['omar@orbit.example']);
    expect(got!.raw).toMatch(/^Subject: Quick question, Omar$/m);
    expect(got!.raw).toContain('Hi Omar, how is Orbit?');
    expect((await call('GET', '/api/email/outbox')).json().messages).toEqual([]);
  });

  it("answers the server's reason when it refuses, and records nothing", async () => {
    const server = await smtpServer({ reject: 'Mailbox unavailable' });
    await call('PUT', '/api/email/configuration', configFor(server.port));
    const contact = await insertContact(ctx.app, rep, {});
    const sent = await call('POST', `/api/contacts/${contact.id}/emails`, { subject: 'S', content: 'C' });
    expect(sent.statusCode).toBe(502);
    expect(sent.json()).toEqual({
      code: 'MAIL_FAILED',
      message: 'The mail server refused the message: 550 Mailbox unavailable',
    });
    expect((await ctx.db.admin.query('select count(*)::int as n from contact_emails')).rows[0].n).toBe(0);
    expect((await ctx.db.admin.query('select count(*)::int as n from consent_decisions')).rows[0].n).toBe(0);
  });

  it('refuses an empty subject or message, a cold lead placeholder, and another user’s contact or template', async () => {
    const contact = await insertContact(ctx.app, rep, {});
    const empty = await call('POST', `/api/contacts/${contact.id}/emails`, { subject: ' ', content: ' ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().issues.map((i: { message: string }) => i.message)).toEqual(
      expect.arrayContaining(['Subject is required', 'Message is required']),
    );
    const cold = (await call('POST', '/api/contacts/cold-leads', { company: 'Frosty' })).json().contact;
    const toCold = await call('POST', `/api/contacts/${cold.id}/emails`, { subject: 'S', content: 'C' });
    expect(toCold.statusCode).toBe(400);
    expect(toCold.json().message).toBe('This contact has no e-mail address to send to.');

    const other = await createAccount(ctx, 'user');
    const foreign = await call(
      'POST',
      `/api/contacts/${contact.id}/emails`,
      { subject: 'S', content: 'C' },
      other,
    );
    expect(foreign.statusCode).toBe(404);
    expect((await call('GET', `/api/contacts/${contact.id}/emails`, undefined, other)).statusCode).toBe(404);
    const theirs = (
      await call('POST', '/api/email/templates', { name: 'T', subject: 'S', content: 'C' }, other)
    ).json().template;
    const withForeignTemplate = await call('POST', `/api/contacts/${contact.id}/emails`, {
      subject: 'S',
      content: 'C',
      templateId: theirs.id,
    });
    expect(withForeignTemplate.statusCode).toBe(404);
    expect((await ctx.db.admin.query('select count(*)::int as n from contact_emails')).rows[0].n).toBe(0);
  });
});
