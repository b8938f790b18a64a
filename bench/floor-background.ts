import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { PACE } from '../domain/campaigns/campaign-pace.ts';
import { createTestCertificate, startTestSmtpServer } from '../server/test/test-smtp-server.ts';
import { benchApi, signUpBenchUser } from './bench-server.ts';
import { importCsv, writeContactsCsv } from './contacts-transfer.bench.ts';
import { meetsRepTargets } from './rep-targets.ts';
import { fmt, summarise } from './stats.ts';

/**
 * What a sales floor's server does besides the reps' calls: two e-mail campaigns and one SMS campaign of
 * CAMPAIGN_SIZE recipients sending at the highest pace a campaign may have, to a local mail server and the simulator,
 * and one user importing IMPORT_ROWS contacts from a CSV. Each is its own account, as it would be on a real floor.
 */
const CAMPAIGN_SIZE = Number(process.env.BENCH_CAMPAIGN_SIZE ?? 50_000);
const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 500_000);
/** Each campaign's pace, messages a minute: by default the highest a campaign may have. */
const CAMPAIGN_PACE = Number(process.env.BENCH_CAMPAIGN_PACE ?? PACE.max);
/** How long the floor's end waits for an import still running before it reports how far the import got. */
const IMPORT_GRACE_MS = 60_000;

type Campaign = { channel: 'email' | 'sms'; id: string };

/** The mail server and the account of each workload, seeded; `env` is what the servers need to trust the mail server. */
export async function prepareBackground() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'callcrm-floor-'));
  const certificate = await createTestCertificate();
  writeFileSync(path.join(dir, 'ca.pem'), certificate.cert);
  const smtp = await startTestSmtpServer({ tls: certificate });
  const csv = path.join(dir, 'import.csv');
  if (IMPORT_ROWS) await writeContactsCsv(csv, IMPORT_ROWS);
  return {
    env: { SMTP_CA_FILE: path.join(dir, 'ca.pem') },
    /** Signs the workloads' accounts up on `base` and gives them their recipients; a new `round`, new accounts. */
    accounts: (base: string, owner: pg.Pool, round = 0) => seedAccounts(base, owner, smtp.port, round),
    smtp,
    csv,
    close: async () => {
      await smtp.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function seedAccounts(base: string, owner: pg.Pool, smtpPort: number, round: number) {
  const signUp = (name: string, i: number) =>
    signUpBenchUser(base, `floor-${name}-${round}@example.com`, `10.${240 + round}.${i}.1`);
  const mailers = [await signUp('mailer-1', 1), await signUp('mailer-2', 2)];
  const texter = await signUp('texter', 3);
  const importer = await signUp('importer', 4);
  const all = [...mailers, texter, importer].map((a) => a.userId);
  await owner.query(`update user_profiles set role = 'user' where id = any($1::uuid[])`, [all]);
  // The simulator's fictional numbers have no local time: allowed, as the tests arrange it.
  await owner.query(`insert into consent_settings (user_id, unknown_local_time) values ($1, 'allow')`, [
    texter.userId,
  ]);
  for (const [i, mailer] of mailers.entries()) {
    await benchApi(base, mailer.cookie)('PUT', '/api/email/configuration', {
      email: `mailer${i}@sales.example`,
      server: '127.0.0.1',
      port: smtpPort,
      password: 'app password',
    });
    await owner.query(
      `insert into contacts (user_id, first_name, last_name, email)
       select $1, 'Reader' || g, 'Mail', 'reader' || g || '@buyer${i}.example' from generate_series(1, $2::int) g`,
      [mailer.userId, CAMPAIGN_SIZE],
    );
  }
  await owner.query(
    `insert into contacts (user_id, first_name, last_name, email, phone, phone_e164)
     select $1, 'Texted' || g, 'Sms', '', '+1555' || (3000000 + g), '+1555' || (3000000 + g)
     from generate_series(1, $2::int) g`,
    [texter.userId, CAMPAIGN_SIZE],
  );
  // These contacts stand for the imports that would have brought them, which have PostgreSQL sample them (decision 042).
  await owner.query('select refresh_contact_statistics()');
  return { mailers, texter, importer };
}

type Accounts = Awaited<ReturnType<typeof seedAccounts>>;

/** Starts the campaigns and the import through the API, as their users would; `finish` reads how far they got. */
export async function startBackground(base: string, accounts: Accounts, csv: string, owner: pg.Pool) {
  const campaigns: Campaign[] = [];
  const creation: number[] = [];
  const start = async (channel: 'email' | 'sms', cookie: string, name: string) => {
    const api = benchApi(base, cookie);
    const started = performance.now();
    const created = (await api('POST', channel === 'email' ? '/api/email-campaigns' : '/api/sms-campaigns', {
      name,
      ...(channel === 'email'
        ? { subject: 'Hello {{firstName}}', body: 'A word from the floor.' }
        : { message: 'Hi {{firstName}}, a word from the floor.' }),
      perMinute: CAMPAIGN_PACE,
      selection: { allMatching: {} },
    })) as { campaign: { id: string } };
    creation.push(performance.now() - started);
    const id = created.campaign.id;
    await api('POST', `/api/${channel}-campaigns/${id}/send`, {});
    campaigns.push({ channel, id });
  };
  const importStarted = performance.now();
  // BENCH_IMPORT_ROWS=0: no import beside the reps (the knee of the reps' own work).
  const importing = IMPORT_ROWS
    ? importCsv(base, accounts.importer.cookie, csv).then((report) => ({
        seconds: (performance.now() - importStarted) / 1000,
        from: importStarted,
        to: performance.now(),
        created: report.report.created,
        finished: true,
      }))
    : Promise.resolve(null);
  /** An import still running when the floor ends: how many contacts it saved by then (it goes on until the servers stop). */
  const soFar = async () => {
    const { rows } = await owner.query<{ n: number }>(
      'select count(*)::int as n from contacts where user_id = $1',
      [accounts.importer.userId],
    );
    const to = performance.now();
    return {
      seconds: (to - importStarted) / 1000,
      from: importStarted,
      to,
      created: rows[0]!.n,
      finished: false,
    };
  };
  // Read when the floor finishes; a failure then fails the run, not the process before it can stop its servers.
  importing.catch(() => undefined);
  await Promise.all([
    start('email', accounts.mailers[0]!.cookie, 'Floor mail 1'),
    start('email', accounts.mailers[1]!.cookie, 'Floor mail 2'),
    start('sms', accounts.texter.cookie, 'Floor texts'),
  ]);
  return {
    /**
     * Each campaign's messages sent and their pace so far; the import's time, waiting up to IMPORT_GRACE_MS for it to
     * end, or, when it outlasts the floor by more (an import stepping back while people work), how far it got.
     */
    finish: async () => {
      const sent = await Promise.all(
        campaigns.map(async (c) => {
          const table = c.channel === 'email' ? 'email_campaign_recipients' : 'sms_campaign_recipients';
          // The pace over the span it sent in (a campaign may finish before the floor does).
          const { rows } = await owner.query<{ n: number; seconds: number }>(
            `select count(*)::int as n,
               coalesce(extract(epoch from max(sent_at) - min(sent_at)), 0)::float8 as seconds
             from ${table} where campaign_id = $1 and state = 'sent'`,
            [c.id],
          );
          const { n, seconds } = rows[0]!;
          return { channel: c.channel, sent: n, perMinute: seconds > 0 ? (60 * (n - 1)) / seconds : 0 };
        }),
      );
      const outlasted = new Promise<'outlasted'>((resolve) =>
        setTimeout(resolve, IMPORT_GRACE_MS, 'outlasted'),
      );
      const imported = await Promise.race([importing, outlasted]);
      return { creationMs: creation, sent, import: imported === 'outlasted' ? await soFar() : imported };
    },
  };
}

export type BackgroundFigures = Awaited<ReturnType<Awaited<ReturnType<typeof startBackground>>['finish']>>;

/** The report's rows for what ran beside the reps. */
type Timed = { key: string; at: number; ms: number };

export function backgroundRows(figures: BackgroundFigures, timeline: Timed[]): string[] {
  const imported = figures.import;
  const mail = figures.sent.filter((s) => s.channel === 'email');
  const sms = figures.sent.filter((s) => s.channel === 'sms');
  const pace = (list: typeof mail) =>
    list.map((s) => `${s.sent.toLocaleString()} (${s.perMinute.toFixed(0)} a minute)`).join(', ');
  return [
    `| beside the reps: campaigns of ${CAMPAIGN_SIZE.toLocaleString()} created (recipients chosen), ms | | ${figures.creationMs.map((ms) => ms.toFixed(0)).join(', ')} | | | |`,
    `| beside the reps: e-mails sent by the phase's end (their pace while sending; set to ${CAMPAIGN_PACE.toLocaleString()} a minute${CAMPAIGN_PACE === PACE.max ? ', the highest' : ''}) | | ${pace(mail)} | | | |`,
    `| beside the reps: texts sent by the phase's end (the same) | | ${pace(sms)} | | | |`,
    ...(imported ? importRows(imported, timeline) : []),
  ];
}

/** p50 / p95 / p99 of some requests, and whether they hold the reps' targets (p95 ≤ 100 ms, p99 ≤ 300 ms). */
const percentiles = (list: Timed[]) => {
  const s = summarise(list.map((t) => t.ms));
  return { text: `${fmt(s.p50)} / ${fmt(s.p95)} / ${fmt(s.p99)}`, holds: meetsRepTargets(s) };
};

function importRows(imported: NonNullable<BackgroundFigures['import']>, timeline: Timed[]): string[] {
  const duringList = timeline.filter((t) => t.at >= imported.from && t.at < imported.to);
  const afterList = timeline.filter((t) => t.at >= imported.to);
  const during = summarise(duringList.map((t) => t.ms));
  const after = summarise(afterList.map((t) => t.ms));
  // Each endpoint of the flow on its own, while the import ran against after it.
  const keys = [...new Set(duringList.map((t) => t.key))].sort();
  const byEndpoint = keys.map((key) => {
    const d = percentiles(duringList.filter((t) => t.key === key));
    const a = afterList.filter((t) => t.key === key);
    return `| ${key}: while the import ran → after it | | ${d.text} → ${a.length ? percentiles(a).text : '–'} | ${duringList.filter((t) => t.key === key).length} → ${a.length} | | while importing: ${d.holds ? 'yes' : 'NO'} |`;
  });
  return [
    imported.finished
      ? `| beside the reps: ${IMPORT_ROWS.toLocaleString()}-row CSV import, request to report (s) | | ${imported.seconds.toFixed(1)} (${imported.created.toLocaleString()} created) | | | |`
      : `| beside the reps: ${IMPORT_ROWS.toLocaleString()}-row CSV import, still running when the floor ended (s, contacts saved so far) | | ${imported.seconds.toFixed(1)} (${imported.created.toLocaleString()} saved) | | | |`,
    `| every request of the reps' own flow while the import ran / after it (the campaigns still sending), p50 / p95 / p99 | | ${fmt(during.p50)} / ${fmt(during.p95)} / ${fmt(during.p99)} → ${afterList.length ? `${fmt(after.p50)} / ${fmt(after.p95)} / ${fmt(after.p99)}` : '– (the import outlasted the floor)'} | ${duringList.length} → ${afterList.length} | | |`,
    ...byEndpoint,
  ];
}

export const backgroundSummary = () =>
  `two e-mail campaigns and one SMS campaign of ${CAMPAIGN_SIZE.toLocaleString()} each sending at ${CAMPAIGN_PACE.toLocaleString()} a minute${CAMPAIGN_PACE === PACE.max ? ' (the highest pace a campaign may have)' : ''} (a local mail server, the simulator)${IMPORT_ROWS ? ` and a ${IMPORT_ROWS.toLocaleString()}-row CSV import` : ', no import'}, all started as the floor starts, each by an account of its own`;
