import pg from 'pg';
import { startServerProcess, type ServerProcess } from '../server/test/server-process.ts';
import { fmt, time } from './stats.ts';

export type DrillApi = (method: string, url: string, body?: object) => Promise<Record<string, unknown>>;

/**
 * Drills: a campaign sent by the product as the README runs it, the server process killed (kill -9,
 * whole process group) `kills` times during the send and started again each time. What the provider or mail
 * server received is counted by `handed` (outside the killed process). Answers the figures both drills report.
 */
export async function runKillDrill(options: {
  env: Record<string, string>;
  ownerUrl: string;
  recipients: number;
  kills: number;
  table: 'email_campaign_recipients' | 'sms_campaign_recipients';
  /** Seeds the user's contacts (and anything the send needs) once signed up. */
  prepare: (api: DrillApi, userId: string, owner: pg.Pool) => Promise<void>;
  /** Creates the campaign and presses Send; answers its id. */
  start: (api: DrillApi) => Promise<string>;
  /** Every address or number handed over so far, one entry per message. */
  handed: () => string[];
}) {
  const owner = new pg.Pool({ connectionString: options.ownerUrl, max: 2 });
  let server: ServerProcess = await startServerProcess(options.env);
  try {
    const signedUp = await fetch(`${server.base}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.base },
      body: JSON.stringify({ email: 'drill@example.com', password: 'correct horse battery', name: 'Drill' }),
    });
    const userId = ((await signedUp.json()) as { user: { id: string } }).user.id;
    const cookie = signedUp.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const api: DrillApi = async (method, url, body) => {
      const r = await fetch(`${server.base}${url}`, {
        method,
        headers: { cookie, origin: server.base, 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      });
      if (r.status >= 300) throw new Error(`${method} ${url}: ${r.status} ${await r.text()}`);
      return r.json() as Promise<Record<string, unknown>>;
    };
    await options.prepare(api, userId, owner);
    let id = '';
    const queued = await time(async () => {
      id = await options.start(api);
    });

    const started = performance.now();
    const every = Math.floor(options.recipients / (options.kills + 2));
    const restarts: number[] = [];
    for (let kill = 0; kill < options.kills; kill++) {
      while (options.handed().length < (kill + 1) * every) await new Promise((r) => setTimeout(r, 25));
      await server.kill();
      restarts.push(
        await time(async () => {
          server = await startServerProcess(options.env);
        }),
      );
    }
    const byState = async () =>
      (
        await owner.query<{ state: string; n: number }>(
          `select state, count(*)::int as n from ${options.table} where campaign_id = $1 group by state`,
          [id],
        )
      ).rows.reduce<Record<string, number>>((all, r) => ({ ...all, [r.state]: r.n }), {});
    let states = await byState();
    while ((states.queued ?? 0) + (states.sending ?? 0) > 0) {
      await new Promise((r) => setTimeout(r, 250));
      states = await byState();
    }
    return {
      queued,
      states,
      handed: options.handed(),
      duration: performance.now() - started,
      meanRestart: restarts.reduce((a, b) => a + b, 0) / restarts.length,
    };
  } finally {
    await server.kill();
    await owner.end();
  }
}

/** The drill's table: queued in time, nobody handed twice, every recipient accounted for. */
export function drillRows(
  drill: Awaited<ReturnType<typeof runKillDrill>>,
  words: { recipients: number; kills: number; receiver: string },
): string[] {
  const { states, handed } = drill;
  const sent = states.sent ?? 0;
  const unconfirmed = states.unconfirmed ?? 0;
  const twice = handed.length - new Set(handed).size;
  const accounted = sent + (states.failed ?? 0) + unconfirmed + (states.skipped ?? 0);
  return [
    `| queue the campaign (create from the whole filter, then Send) | ${fmt(drill.queued)} ms | ≤ 5 s: ${drill.queued <= 5000 ? 'yes' : '**no**'} |`,
    `| recipients the ${words.receiver} was handed twice | ${twice} | 0: ${twice === 0 ? 'yes' : '**no**'} |`,
    `| recipients sent / failed / skipped / unconfirmed | ${sent} / ${states.failed ?? 0} / ${states.skipped ?? 0} / ${unconfirmed} | all ${words.recipients.toLocaleString()} accounted for: ${accounted === words.recipients ? 'yes' : '**no**'}; unconfirmed ≤ kills: ${unconfirmed <= words.kills ? 'yes' : '**no**'} |`,
    `| messages the ${words.receiver} received | ${handed.length} | between sent and sent + unconfirmed: ${handed.length >= sent && handed.length <= sent + unconfirmed ? 'yes' : '**no**'} |`,
    `| the send from first kill to last recipient, restarts included | ${(drill.duration / 1000).toFixed(1)} s | |`,
    `| a restart (process start to healthy), mean of ${words.kills} | ${fmt(drill.meanRestart)} ms | |`,
  ];
}
