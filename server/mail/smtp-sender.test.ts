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

  it('says so when nothing listens', async () => {
    const send = createSmtpSender({});
    await expect(send(settings(1), mail)).rejects.toThrow(/connection refused/);
  });
});
