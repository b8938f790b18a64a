import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.ts';
import { withDatabase } from '../../test/test-postgres.ts';
import { startServerProcess, type ServerProcess } from '../../test/server-process.ts';
import { createTestCertificate, startTestSmtpServer } from '../../test/test-smtp-server.ts';

/**
 * The campaign send under kill -9: the server running a campaign is killed mid-send, again and again, and
 * started again each time, exactly as the README runs it. The mail server counts what it received: nobody is
 * mailed twice, and every recipient ends sent, failed, or — only the few being handed over at a kill — unconfirmed.
 */
const RECIPIENTS = 200;
const KILLS = 3;

let db: TestDatabase;
let dir: string;
let smtp: Awaited<ReturnType<typeof startTestSmtpServer>>;
let server: ServerProcess | null = null;
let env: Record<string, string>;

beforeAll(async () => {
  db = await createTestDatabase();
  dir = mkdtempSync(path.join(os.tmpdir(), 'callcrm-campaign-crash-'));
  const cert = await createTestCertificate();
  writeFileSync(path.join(dir, 'ca.pem'), cert.cert);
  smtp = await startTestSmtpServer({ tls: cert });
  env = {
    DATABASE_URL: withDatabase(inject('pgAdminUrl'), db.name),
    DATA_DIR: dir,
    SESSION_SECRET: 'campaign-crash-session-secret-long-enough-1234',
    ENCRYPTION_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
    SMTP_CA_FILE: path.join(dir, 'ca.pem'),
    PUBLIC_URL: '',
  };
}, 60_000);
afterAll(async () => {
  await server?.kill();
  await smtp.close();
  await db.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('an e-mail campaign whose server is killed mid-send', () => {
  it('mails nobody twice and accounts for every recipient', async () => {
    server = await startServerProcess(env);
    const base = () => server!.base;
    const signedUp = await fetch(`${base()}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base() },
      body: JSON.stringify({
        email: 'owner@example.com',
        password: 'correct horse battery',
        name: 'Olive Owner',
      }),
    });
    const userId = ((await signedUp.json()) as { user: { id: string } }).user.id;
    const cookie = signedUp.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const api = (method: string, url: string, body?: object) =>
      fetch(`${base()}${url}`, {
        method,
        headers: { cookie, origin: base(), ...(body && { 'content-type': 'application/json' }) },
        body: body ? JSON.stringify(body) : null,
      });
    expect(
      (
        await api('PUT', '/api/email/configuration', {
          email: 'owner@sales.example',
          server: '127.0.0.1',
          port: smtp.port,
          password: 'app password',
        })
      ).status,
    ).toBe(200);
    await db.admin.query(
      `insert into contacts (user_id, first_name, last_name, email)
       select $1, 'Crash' || g, 'Test', 'crash' || g || '@buyer.example' from generate_series(1, ${RECIPIENTS}) g`,
      [userId],
    );
    const created = await api('POST', '/api/email-campaigns', {
      name: 'Under fire',
      subject: 'Hi {{firstName}}',
      body: 'Hello',
      perMinute: 3000,
      selection: { allMatching: {} },
    });
    const id = ((await created.json()) as { campaign: { id: string } }).campaign.id;
    expect((await api('POST', `/api/email-campaigns/${id}/send`)).status).toBe(200);

    for (let kill = 0; kill < KILLS; kill++) {
      const before = smtp.received.length;
      const until = Date.now() + 30_000;
      while (smtp.received.length < before + 20 && Date.now() < until)
        await new Promise((r) => setTimeout(r, 10));
      await server.kill();
      server = await startServerProcess(env);
    }

    const counts = async () =>
      (
        await db.admin.query<{ state: string; n: number }>(
          `select state, count(*)::int as n from email_campaign_recipients where campaign_id = $1 group by state`,
          [id],
        )
      ).rows.reduce<Record<string, number>>((all, r) => ({ ...all, [r.state]: r.n }), {});
    const until = Date.now() + 60_000;
    while (((await counts()).queued ?? 0) + ((await counts()).sending ?? 0) > 0 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 200));
    const final = await counts();
    const addresses = smtp.received.map((m) => m.to[0]);
    expect(new Set(addresses).size).toBe(addresses.length); // nobody twice
    expect((final.sent ?? 0) + (final.failed ?? 0) + (final.unconfirmed ?? 0)).toBe(RECIPIENTS);
    expect(final.unconfirmed ?? 0).toBeLessThanOrEqual(KILLS);
    // Every recipient recorded sent really got the mail; an unconfirmed one may or may not have.
    expect(addresses.length).toBeGreaterThanOrEqual(final.sent ?? 0);
    expect(addresses.length).toBeLessThanOrEqual((final.sent ?? 0) + (final.unconfirmed ?? 0));
    // The campaign turns 'sent' at the send loop's next step after its last recipient is accounted for.
    const status = async () =>
      (await db.admin.query<{ status: string }>(`select status from email_campaigns where id = $1`, [id]))
        .rows[0]!.status;
    while ((await status()) === 'sending' && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    expect(await status()).toBe('sent');
  }, 180_000);
});
