import { startBenchServer } from './bench-server.ts';
import { fmt, summarise, time } from './stats.ts';
import type { BenchResult } from './session-check.bench.ts';
import { createSmtpSender } from '../server/mail/smtp-sender.ts';
import { createTestCertificate, startTestSmtpServer } from '../server/test/test-smtp-server.ts';

const SENDS = 100;
const TARGET_MS = 1000;

/**
 *Send Email to a contact through a local mail server (STARTTLS, login), end to end over HTTP: the session,
 * the contact, the sealed password opened, merge fields, the SMTP conversation, the record written. Floor: the same
 * message handed to the same server by the same sender code, nothing else.
 */
export async function benchEmailSend(ownerUrl: string): Promise<BenchResult> {
  const certificate = await createTestCertificate();
  const smtp = await startTestSmtpServer({
    tls: certificate,
    auth: { user: 'rep@sales.example', pass: 'app-pass' },
  });
  const { app, base } = await startBenchServer(ownerUrl, { smtpTrustedCa: certificate.cert });
  try {
    const headers = { 'content-type': 'application/json', origin: 'http://localhost:3000' };
    const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email: 'mailer@example.com', password: 'bench password 123', name: '' }),
    });
    const cookie = signUp.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const call = (method: string, path: string, body: unknown) =>
      fetch(`${base}${path}`, { method, headers: { ...headers, cookie }, body: JSON.stringify(body) });
    const settings = {
      email: 'rep@sales.example',
      server: '127.0.0.1',
      port: smtp.port,
      password: 'app-pass',
    };
    await call('PUT', '/api/email/configuration', settings);
    const created = await call('POST', '/api/contacts', {
      firstName: 'Lena',
      lastName: 'Lind',
      email: 'lena@lead.example',
    });
    const contactId = ((await created.json()) as { contact: { id: string } }).contact.id;

    const message = {
      subject: 'Hello {{firstName}}',
      content: 'Dear {{fullName}},\nthank you for your time.',
    };
    const api: number[] = [];
    for (let i = 0; i < SENDS + 5; i++) {
      const ms = await time(async () => {
        const r = await call('POST', `/api/contacts/${contactId}/emails`, message);
        if (r.status !== 201) throw new Error(`send failed: ${r.status} ${await r.text()}`);
        await r.text();
      });
      if (i >= 5) api.push(ms);
    }
    const send = createSmtpSender({ trustedCa: certificate.cert });
    const floor: number[] = [];
    for (let i = 0; i < SENDS + 5; i++) {
      const ms = await time(() =>
        send(
          {
            host: '127.0.0.1',
            port: smtp.port,
            username: 'rep@sales.example',
            password: 'app-pass',
            fromAddress: 'rep@sales.example',
            fromName: null,
          },
          {
            to: 'lena@lead.example',
            subject: 'Hello Lena',
            text: 'Dear Lena Lind,\nthank you for your time.',
          },
        ),
      );
      if (i >= 5) floor.push(ms);
    }
    const a = summarise(api);
    const f = summarise(floor);
    return {
      name: 'Send Email through a local mail server',
      dataSize: `${SENDS} sequential sends after 5 warm-up, STARTTLS with login on 127.0.0.1; ${smtp.received.length} messages arrived`,
      header: '| measure | p50 | p95 | p99 |',
      rows: [
        `| POST /api/contacts/:id/emails over HTTP | ${fmt(a.p50)} | ${fmt(a.p95)} | ${fmt(a.p99)} |`,
        `| floor: the same message straight to the mail server | ${fmt(f.p50)} | ${fmt(f.p95)} | ${fmt(f.p99)} |`,
        `| ratio API / floor | ${(a.p50 / f.p50).toFixed(1)}× | ${(a.p95 / f.p95).toFixed(1)}× | ${(a.p99 / f.p99).toFixed(1)}× |`,
        '',
        `Target: the request answers within ${TARGET_MS} ms: ${a.p99 <= TARGET_MS ? `yes (p99 ${fmt(a.p99)} ms)` : '**no**'}.`,
      ],
    };
  } finally {
    await app.close();
    await smtp.close();
  }
}
