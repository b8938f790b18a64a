import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startServerProcess, type ServerProcess } from '../server/test/server-process.ts';
import { createTestCertificate, startTestSmtpServer } from '../server/test/test-smtp-server.ts';
import { fmt, time } from './stats.ts';
import type { BenchResult } from './session-check.bench.ts';

const RECIPIENTS = 10_000;
const KILLS = 20;

/**
 * Issue 12's drill: a 10,000-recipient e-mail campaign to a local SMTP server, the server process killed (kill -9,
 * whole process group) 20 times during the send and started again each time, as the README runs it. The mail
 * server counts what it received: how many addresses arrived twice (must be 0), and how every recipient ended.
 */
export async function benchCampaignDrill(ownerUrl: string): Promise<BenchResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'callcrm-campaign-drill-'));
  const cert = await createTestCertificate();
  writeFileSync(path.join(dir, 'ca.pem'), cert.cert);
  const smtp = await startTestSmtpServer({ tls: cert });
  const owner = new pg.Pool({ connectionString: ownerUrl, max: 2 });
  const env = {
    DATABASE_URL: ownerUrl,
    DATA_DIR: dir,
    SESSION_SECRET: 'campaign-drill-session-secret-long-enough-1234',
    ENCRYPTION_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
    SMTP_CA_FILE: path.join(dir, 'ca.pem'),
    PUBLIC_URL: '',
  };
  let server: ServerProcess = await startServerProcess(env);
  try {
    const base = () => server.base;
    const signedUp = await fetch(`${base()}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base() },
      body: JSON.stringify({ email: 'drill@example.com', password: 'correct horse battery', name: 'Drill' }),
    });
    const userId = ((await signedUp.json()) as { user: { id: string } }).user.id;
    const cookie = signedUp.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const api = async (method: string, url: string, body?: object) => {
      const r = await fetch(`${base()}${url}`, {
        method,
        headers: { cookie, origin: base(), 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      });
      if (r.status >= 300) throw new Error(`${method} ${url}: ${r.status} ${await r.text()}`);
      return r.json() as Promise<Record<string, unknown>>;
    };
    await api('PUT', '/api/email/configuration', {
      email: 'drill@sales.example',
      server: '127.0.0.1',
      port: smtp.port,
      password: 'app password',
    });
    await owner.query(
      `insert into contacts (user_id, first_name, last_name, email)
       select $1, 'Drill' || g, 'Test', 'drill' || g || '@buyer.example' from generate_series(1, ${RECIPIENTS}) g`,
      [userId],
    );
    let id = '';
    const queued = await time(async () => {
      const created = (await api('POST', '/api/email-campaigns', {
        name: 'Drill',
        subject: 'Hi {{firstName}}',
        body: 'Hello',
        perMinute: 3000,
        selection: { allMatching: {} },
      })) as { campaign: { id: string } };
      id = created.campaign.id;
      await api('POST', `/api/email-campaigns/${id}/send`);
    });

    const started = performance.now();
    const every = Math.floor(RECIPIENTS / (KILLS + 2));
    const restarts: number[] = [];
    for (let kill = 0; kill < KILLS; kill++) {
      const target = (kill + 1) * every;
      while (smtp.received.length < target) await new Promise((r) => setTimeout(r, 5));
      await server.kill();
      restarts.push(
        await time(async () => {
          server = await startServerProcess(env);
        }),
      );
    }
    const open = async () =>
      (
        await owner.query<{ n: number }>(
          `select count(*)::int as n from email_campaign_recipients where campaign_id = $1 and state in ('queued', 'sending')`,
          [id],
        )
      ).rows[0]!.n;
    while ((await open()) > 0) await new Promise((r) => setTimeout(r, 250));
    const duration = performance.now() - started;
    const states = (
      await owner.query<{ state: string; n: number }>(
        `select state, count(*)::int as n from email_campaign_recipients where campaign_id = $1 group by state`,
        [id],
      )
    ).rows.reduce<Record<string, number>>((all, r) => ({ ...all, [r.state]: r.n }), {});
    const addresses = smtp.received.map((m) => m.to[0]);
    const twice = addresses.length - new Set(addresses).size;
    const accounted =
      (states.sent ?? 0) + (states.failed ?? 0) + (states.unconfirmed ?? 0) + (states.skipped ?? 0);
    const meanRestart = restarts.reduce((a, b) => a + b, 0) / restarts.length;
    return {
      name: 'E-mail campaign drill: 10,000 recipients, the server killed 20 times',
      dataSize: `${RECIPIENTS.toLocaleString()} recipients, local SMTP server (STARTTLS), pace 3,000 a minute, ${KILLS} × kill -9 of the whole process group during the send, each followed by a restart`,
      header: '| measure | value | target |',
      rows: [
        `| queue the campaign (create from the whole filter, then Send) | ${fmt(queued)} ms | ≤ 5 s: ${queued <= 5000 ? 'yes' : '**no**'} |`,
        `| addresses the mail server received twice | ${twice} | 0: ${twice === 0 ? 'yes' : '**no**'} |`,
        `| recipients sent / failed / skipped / unconfirmed | ${states.sent ?? 0} / ${states.failed ?? 0} / ${states.skipped ?? 0} / ${states.unconfirmed ?? 0} | all ${RECIPIENTS.toLocaleString()} accounted for: ${accounted === RECIPIENTS ? 'yes' : '**no**'}; unconfirmed ≤ kills: ${(states.unconfirmed ?? 0) <= KILLS ? 'yes' : '**no**'} |`,
        `| messages the mail server received | ${addresses.length} | between sent and sent + unconfirmed: ${addresses.length >= (states.sent ?? 0) && addresses.length <= (states.sent ?? 0) + (states.unconfirmed ?? 0) ? 'yes' : '**no**'} |`,
        `| the send from first kill to last recipient, restarts included | ${(duration / 1000).toFixed(1)} s | |`,
        `| a restart (process start to healthy), mean of ${KILLS} | ${fmt(meanRestart)} ms | |`,
      ],
    };
  } finally {
    await server.kill();
    await owner.end();
    await smtp.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
