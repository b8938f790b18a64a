import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestCertificate,
  startTestSmtpServer,
  type TestCertificate,
} from '../test/test-smtp-server.ts';
import { createSmtpSender, MailDeliveryError, type SmtpSettings } from './smtp-sender.ts';

let cert: TestCertificate;
beforeAll(async () => {
  cert = await createTestCertificate();
});

const settings = (port: number, overrides: Partial<SmtpSettings> = {}): SmtpSettings => ({
  host: '127.0.0.1',
  port,
  username: 'rep@example.com',
  password: 'app password',
  fromAddress: 'rep@example.com',
  fromName: 'Rita Rep',
  ...overrides,
});
const mail = { to: 'lead@example.com', subject: 'Hello', text: 'Body text' };

describe('SMTP sender', () => {
  const servers: { close: () => Promise<void> }[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('upgrades with STARTTLS, logs in, and delivers with the sender, recipient, subject and body', async () => {
    const server = await startTestSmtpServer({
      tls: cert,
      auth: { user: 'rep@example.com', pass: 'app password' },
    });
    servers.push(server);
    const send = createSmtpSender({ trustedCa: cert.cert });
    const { messageId } = await send(settings(server.port), mail);
    expect(messageId).toMatch(/@/);
    expect(server.received).toHaveLength(1);
    const [got] = server.received;
    expect(got!.from).toBe('rep@example.com');
    expect(got!.to).toEqual(['lead@example.com']);
    expect(got!.raw).toMatch(/^Subject: Hello$/m);
    expect(got!.raw).toMatch(/^From: Rita Rep <rep@example.com>$/m);
    expect(got!.raw).toContain('Body text');
  });

  it('speaks TLS from the first byte on the implicit-TLS port', async () => {
    const server = await startTestSmtpServer({ tls: cert, implicitTls: true });
    servers.push(server);
    const send = createSmtpSender({ trustedCa: cert.cert, implicitTlsPorts: [server.port] });
    await send(settings(server.port), mail);
    expect(server.received).toHaveLength(1);
  });

  it('refuses a server that offers no STARTTLS, rather than sending the password in the clear', async () => {
    const server = await startTestSmtpServer();
    servers.push(server);
    const send = createSmtpSender({});
    await expect(send(settings(server.port), mail)).rejects.toThrow(/does not offer a secure connection/);
    expect(server.received).toHaveLength(0);
  });

  it('refuses a certificate nobody trusts', async () => {
    const server = await startTestSmtpServer({ tls: cert });
    servers.push(server);
    const send = createSmtpSender({});
    await expect(send(settings(server.port), mail)).rejects.toThrow(/secure connection to 127.0.0.1/);
  });

  it("reports the server's own words for a refused login and a refused message", async () => {
    const auth = await startTestSmtpServer({ tls: cert, auth: { user: 'rep@example.com', pass: 'right' } });
    const reject = await startTestSmtpServer({ tls: cert, reject: 'Mailbox unavailable' });
    servers.push(auth, reject);
    const send = createSmtpSender({ trustedCa: cert.cert });
    const refusedLogin = send(settings(auth.port, { password: 'wrong' }), mail);
    await expect(refusedLogin).rejects.toBeInstanceOf(MailDeliveryError);
    await expect(refusedLogin).rejects.toThrow(/refused the login: 535/);
    await expect(send(settings(reject.port), mail)).rejects.toThrow(
      /refused the message: 550 Mailbox unavailable/,
    );
  });

  it('cannot be used as a port scanner: closed, silent and non-mail ports give the same words after the same time', async () => {
    const silent = net.createServer(() => undefined);
    const web = net.createServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    for (const s of [silent, web]) await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const portOf = (s: net.Server) => (s.address() as net.AddressInfo).port;
    const send = createSmtpSender({ connectionTimeoutMs: 1500 });
    const outcomes = await Promise.all(
      [1, portOf(silent), portOf(web)].map(async (port) => {
        const started = Date.now();
        const error = await send(settings(port), mail).catch((e: unknown) => e as Error);
        return {
          text: error instanceof Error ? error.message.replace(`:${port}.`, ':PORT.') : '',
          ms: Date.now() - started,
        };
      }),
    );
    for (const s of [silent, web]) s.close();
    expect(new Set(outcomes.map((o) => o.text)).size).toBe(1);
    expect(outcomes[0]!.text).toBe(
      'No mail server answered at 127.0.0.1:PORT. Check the server name and the port.',
    );
    for (const o of outcomes) expect(o.ms).toBeGreaterThanOrEqual(1450);
    for (const o of outcomes) expect(o.ms).toBeLessThan(2500);
  });

  it("contacts only the operator's allowed mail hosts when a list is set", async () => {
    const server = await startTestSmtpServer({ tls: cert });
    servers.push(server);
    const send = createSmtpSender({
      trustedCa: cert.cert,
      allowedHosts: ['smtp.example.com', '*.mail.example'],
    });
    await expect(send(settings(server.port), mail)).rejects.toThrow(
      /only through these mail servers: smtp.example.com, \*.mail.example/,
    );
    expect(server.received).toHaveLength(0);
  });
});
