import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startServerProcess, type ServerProcess } from '../server/test/server-process.ts';
import { fmt, time } from './stats.ts';
import type { BenchResult } from './session-check.bench.ts';

const RECIPIENTS = 10_000;
const KILLS = 20;

/**
 * Issue 12's SMS drill: a 10,000-recipient SMS campaign on the simulator, the server process killed (kill -9, whole
 * process group) 20 times during the send and started again each time, as the README runs it. The simulator writes
 * every message it accepts to a file before answering (SIMULATOR_SMS_LOG): the provider's records, which survive
 * the kills. Counted: numbers messaged twice (must be 0), and how every recipient ended.
 */
export async function benchSmsDrill(ownerUrl: string): Promise<BenchResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'callcrm-sms-drill-'));
  const log = path.join(dir, 'provider.jsonl');
  const owner = new pg.Pool({ connectionString: ownerUrl, max: 2 });
  const env = {
    DATABASE_URL: ownerUrl,
    DATA_DIR: dir,
    SESSION_SECRET: 'sms-drill-session-secret-long-enough-12345678',
    ENCRYPTION_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
    SIMULATOR_SMS_LOG: log,
    SIMULATOR_TIME_SCALE: '0.1',
    PUBLIC_URL: '',
  };
  const accepted = () =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter((l) => l.trim())
          .map((l) => (JSON.parse(l) as { to: string }).to)
      : [];
  let server: ServerProcess = await startServerProcess(env);
  try {
    const base = () => server.base;
    const signedUp = await fetch(`${base()}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base() },
      body: JSON.stringify({
        email: 'sms-drill@example.com',
        password: 'correct horse battery',
        name: 'Drill',
      }),
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
    // Numbers +1 555 2xx xxxx: none ends a way the simulator refuses; those ending in 2 are never delivered.
    await owner.query(
      `insert into contacts (user_id, first_name, last_name, email, phone, phone_e164)
       select $1, 'Drill' || g, 'Test', '', '+1555' || (2000000 + g), '+1555' || (2000000 + g)
       from generate_series(1, ${RECIPIENTS}) g`,
      [userId],
    );
    let id = '';
    const queued = await time(async () => {
      const created = (await api('POST', '/api/sms-campaigns', {
        name: 'Drill',
        message: 'Hi {{firstName}}, this is a drill.',
        perMinute: 3000,
        selection: { allMatching: {} },
      })) as { campaign: { id: string } };
      id = created.campaign.id;
      await api('POST', `/api/sms-campaigns/${id}/send`);
    });

    const started = performance.now();
    const every = Math.floor(RECIPIENTS / (KILLS + 2));
    const restarts: number[] = [];
    for (let kill = 0; kill < KILLS; kill++) {
      const target = (kill + 1) * every;
      while (accepted().length < target) await new Promise((r) => setTimeout(r, 20));
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
          `select count(*)::int as n from sms_campaign_recipients where campaign_id = $1 and state in ('queued', 'sending')`,
          [id],
        )
      ).rows[0]!.n;
    while ((await open()) > 0) await new Promise((r) => setTimeout(r, 250));
    const duration = performance.now() - started;
    const states = (
      await owner.query<{ state: string; n: number }>(
        `select state, count(*)::int as n from sms_campaign_recipients where campaign_id = $1 group by state`,
        [id],
      )
    ).rows.reduce<Record<string, number>>((all, r) => ({ ...all, [r.state]: r.n }), {});
    const numbers = accepted();
    const twice = numbers.length - new Set(numbers).size;
    const sent = states.sent ?? 0;
    const unconfirmed = states.unconfirmed ?? 0;
    const accounted = sent + (states.failed ?? 0) + unconfirmed + (states.skipped ?? 0);
    const meanRestart = restarts.reduce((a, b) => a + b, 0) / restarts.length;
    return {
      name: 'SMS campaign drill: 10,000 recipients on the simulator, the server killed 20 times',
      dataSize: `${RECIPIENTS.toLocaleString()} recipients, the simulator recording every accepted message in a file, pace 3,000 a minute, ${KILLS} × kill -9 of the whole process group during the send, each followed by a restart`,
      header: '| measure | value | target |',
      rows: [
        `| queue the campaign (create from the whole filter, then Send) | ${fmt(queued)} ms | ≤ 5 s: ${queued <= 5000 ? 'yes' : '**no**'} |`,
        `| numbers the provider was handed twice | ${twice} | 0: ${twice === 0 ? 'yes' : '**no**'} |`,
        `| recipients sent / failed / skipped / unconfirmed | ${sent} / ${states.failed ?? 0} / ${states.skipped ?? 0} / ${unconfirmed} | all ${RECIPIENTS.toLocaleString()} accounted for: ${accounted === RECIPIENTS ? 'yes' : '**no**'}; unconfirmed ≤ kills: ${unconfirmed <= KILLS ? 'yes' : '**no**'} |`,
        `| messages the provider accepted | ${numbers.length} | between sent and sent + unconfirmed: ${numbers.length >= sent && numbers.length <= sent + unconfirmed ? 'yes' : '**no**'} |`,
        `| the send from first kill to last recipient, restarts included | ${(duration / 1000).toFixed(1)} s | |`,
        `| a restart (process start to healthy), mean of ${KILLS} | ${fmt(meanRestart)} ms | |`,
      ],
    };
  } finally {
    await server.kill();
    await owner.end();
    rmSync(dir, { recursive: true, force: true });
  }
}
