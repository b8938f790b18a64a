import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestCertificate, startTestSmtpServer } from '../server/test/test-smtp-server.ts';
import { drillRows, runKillDrill } from './kill-drill.ts';
import type { BenchResult } from './session-check.bench.ts';

const RECIPIENTS = 10_000;
const KILLS = 20;

/**
 * Drill: a 10,000-recipient e-mail campaign to a local SMTP server, the server process killed (kill -9,
 * whole process group) 20 times during the send and started again each time, as the README runs it. The mail
 * server counts what it received: how many addresses arrived twice (must be 0), and how every recipient ended.
 */
export async function benchCampaignDrill(ownerUrl: string): Promise<BenchResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'callcrm-campaign-drill-'));
  const cert = await createTestCertificate();
  writeFileSync(path.join(dir, 'ca.pem'), cert.cert);
  const smtp = await startTestSmtpServer({ tls: cert });
  try {
    const drill = await runKillDrill({
      env: {
        DATABASE_URL: ownerUrl,
        DATA_DIR: dir,
        SESSION_SECRET: 'campaign-drill-session-secret-long-enough-1234',
        ENCRYPTION_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
        SMTP_CA_FILE: path.join(dir, 'ca.pem'),
        PUBLIC_URL: '',
      },
      ownerUrl,
      recipients: RECIPIENTS,
      kills: KILLS,
      table: 'email_campaign_recipients',
      prepare: async (api, userId, owner) => {
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
      },
      start: async (api) => {
        const created = (await api('POST', '/api/email-campaigns', {
          name: 'Drill',
          subject: 'Hi {{firstName}}',
          body: 'Hello',
          perMinute: 3000,
          selection: { allMatching: {} },
        })) as { campaign: { id: string } };
        await api('POST', `/api/email-campaigns/${created.campaign.id}/send`);
        return created.campaign.id;
      },
      handed: () => smtp.received.map((m) => m.to[0]!),
    });
    return {
      name: 'E-mail campaign drill: 10,000 recipients, the server killed 20 times',
      dataSize: `${RECIPIENTS.toLocaleString()} recipients, local SMTP server (STARTTLS), pace 3,000 a minute, ${KILLS} × kill -9 of the whole process group during the send, each followed by a restart`,
      header: '| measure | value | target |',
      rows: drillRows(drill, { recipients: RECIPIENTS, kills: KILLS, receiver: 'mail server' }),
    };
  } finally {
    await smtp.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
