import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drillRows, runKillDrill } from './kill-drill.ts';
import type { BenchResult } from './session-check.bench.ts';

const RECIPIENTS = 10_000;
const KILLS = 20;

/**
 * SMS drill: a 10,000-recipient SMS campaign on the simulator, the server process killed (kill -9, whole
 * process group) 20 times during the send and started again each time, as the README runs it. The simulator writes
 * every message it accepts to a file before answering (SIMULATOR_SMS_LOG): the provider's records, which survive
 * the kills. Counted: numbers messaged twice (must be 0), and how every recipient ended.
 */
export async function benchSmsDrill(ownerUrl: string): Promise<BenchResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'callcrm-sms-drill-'));
  const log = path.join(dir, 'provider.jsonl');
  try {
    const drill = await runKillDrill({
      env: {
        DATABASE_URL: ownerUrl,
        DATA_DIR: dir,
        SESSION_SECRET: 'sms-drill-session-secret-long-enough-12345678',
        ENCRYPTION_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
        SIMULATOR_SMS_LOG: log,
        SIMULATOR_TIME_SCALE: '0.1',
        PUBLIC_URL: '',
      },
      ownerUrl,
      recipients: RECIPIENTS,
      kills: KILLS,
      table: 'sms_campaign_recipients',
      // Numbers +1 555 2xx xxxx, none of which the simulator refuses; fictional, so of unknown local time, which
      // the drill's user allows (Settings → Phone).
      prepare: async (_api, userId, owner) => {
        await owner.query(
          `insert into consent_settings (user_id, unknown_local_time, updated_at) values ($1, 'allow', now())`,
          [userId],
        );
        await owner.query(
          `insert into contacts (user_id, first_name, last_name, email, phone, phone_e164)
           select $1, 'Drill' || g, 'Test', '', '+1555' || (2000000 + g), '+1555' || (2000000 + g)
           from generate_series(1, ${RECIPIENTS}) g`,
          [userId],
        );
      },
      start: async (api) => {
        const created = (await api('POST', '/api/sms-campaigns', {
          name: 'Drill',
          message: 'Hi {{firstName}}, this is a drill.',
          perMinute: 3000,
          selection: { allMatching: {} },
        })) as { campaign: { id: string } };
        await api('POST', `/api/sms-campaigns/${created.campaign.id}/send`);
        return created.campaign.id;
      },
      handed: () =>
        existsSync(log)
          ? readFileSync(log, 'utf8')
              .split('\n')
              .filter((l) => l.trim())
              .map((l) => (JSON.parse(l) as { to: string }).to)
          : [],
    });
    return {
      name: 'SMS campaign drill: 10,000 recipients on the simulator, the server killed 20 times',
      dataSize: `${RECIPIENTS.toLocaleString()} recipients, the simulator recording every accepted message in a file, pace 3,000 a minute, ${KILLS} × kill -9 of the whole process group during the send, each followed by a restart`,
      header: '| measure | value | target |',
      rows: drillRows(drill, { recipients: RECIPIENTS, kills: KILLS, receiver: 'provider' }),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
