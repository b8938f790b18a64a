import pg from 'pg';
import { startServerProcess, signUpFirst } from './server-process.ts';
import { fmt, sample, summarise, time } from './stats.ts';
import type { BenchResult } from './session-check.bench.ts';

const CALLS = 1_000_000;
const CONTACTS = 20_000;
const REPS = 100;
const WARMUP = 5;
const ZONE = 'America/New_York';

/**
 * Every reports view for a user with 1,000,000 calls over the last year, each with a disposition (one in
 * eight qualified; every fourth call has notes, five of them a rare word), through the API of the server as its own process, each beside the
 * same read straight on the database (the floor): the day's Overview, the outcomes of 7 and 30 days, the Qualified
 * Leads tab (first page; a word in many notes; a word in five notes; a contact's name), and the Call Reports filter
 * for a word almost no call has.
 */
export async function benchReports(ownerUrl: string): Promise<BenchResult> {
  const server = await startServerProcess(ownerUrl);
  const owner = new pg.Pool({ connectionString: ownerUrl, max: 4 });
  try {
    const { cookie, userId } = await signUpFirst(server.base, 'reports@example.com');
    const seedMs = await time(async () => {
      await owner.query(
        `insert into contacts (user_id, first_name, last_name, email, phone, company, website, created_at, updated_at)
         select $1::uuid, 'Lead' || g, case when g = 777 then 'Quixotic' else 'Bench' end, 'lead' || g || '@example.com',
           '555' || lpad(g::text, 7, '0'), 'Company ' || (g % 500), 'example' || g || '.com', now(), now()
         from generate_series(1, ${CONTACTS}) g`,
        [userId],
      );
      // A call every ~31.5 s over the last year, each to one of the contacts.
      await owner.query(
        `with ids as (select array_agg(id) as a from contacts where user_id = $1)
         insert into calls (user_id, contact_id, request_id, provider, provider_call_id, from_number, to_number, status,
           notes, started_at, answered_at, updated_at)
         select $1, ids.a[1 + g % ${CONTACTS}], lpad(to_hex(g), 8, '0'), 'simulator', 'SIMREP' || g, '+15550100000',
           '+1555' || lpad((g % 10000000)::text, 7, '0'), 'completed',
           case when g % 4 = 0 then 'Bench note ' || g || case when g % 200000 = 0 then ' zebra' else '' end end,
           now() - make_interval(secs => g * 31.5),
           case when g % 2 = 0 then now() - make_interval(secs => g * 31.5) end, now()
         from generate_series(1, ${CALLS}) g, ids`,
        [userId],
      );
      await owner.query(
        `insert into call_dispositions (user_id, contact_id, disposition, is_qualified, notes, call_id, called_at)
         select user_id, contact_id, d.v, d.v = 'qualified', notes, id, started_at + interval '30 seconds'
         from calls c
         cross join lateral (select case when c.notes like '%zebra%' then 'qualified' else
           (array['answered', 'no-answer', 'busy', 'voicemail', 'call-back', 'not-interested', 'qualified',
             'do-not-call'])[1 + abs(hashtext(c.id::text)) % 8] end as v) d
         where c.user_id = $1`,
        [userId],
      );
      await owner.query('vacuum analyze contacts');
      await owner.query('vacuum analyze calls');
      await owner.query('vacuum analyze call_dispositions');
    });
    const { rows: counts } = await owner.query<{ qualified: string; zebra: string }>(
      `select count(*) filter (where is_qualified) as qualified,
              count(*) filter (where is_qualified and notes like '%zebra%') as zebra
       from call_dispositions where user_id = $1`,
      [userId],
    );
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());

    const get = async (url: string) => {
      const r = await fetch(`${server.base}${url}`, { headers: { cookie } });
      if (!r.ok) throw new Error(`${url}: ${r.status} ${await r.text()}`);
      return r.json() as Promise<Record<string, unknown>>;
    };
    const api = (url: string, reps = REPS) => sample(() => get(url), reps, WARMUP).then(summarise);
    const floor = (text: string, values: unknown[], reps = REPS) =>
      sample(() => owner.query(text, values), reps, WARMUP).then(summarise);
    const day = `day=${today}&tz=${encodeURIComponent(ZONE)}`;

    const overview = await api(`/api/reports/overview?${day}`);
    const overviewFloor = await floor(
      `select * from calls c left join contacts ct on ct.id = c.contact_id
       where c.user_id = $1 and c.started_at >= ($2::date)::timestamp at time zone $3
         and c.started_at < ($2::date + 1)::timestamp at time zone $3`,
      [userId, today, ZONE],
    );
    const week = await api(`/api/reports/outcomes?${day}&days=7`);
    const month = await api(`/api/reports/outcomes?${day}&days=30`);
    const monthFloor = await floor(
      `select (d.called_at at time zone $3)::date, d.disposition, count(*) from call_dispositions d
       where d.user_id = $1 and d.called_at >= ($2::date - 29)::timestamp at time zone $3
         and d.called_at < ($2::date + 1)::timestamp at time zone $3 group by 1, 2`,
      [userId, today, ZONE],
    );
    const leads = await api('/api/reports/qualified-leads');
    const leadsFloor = await floor(
      `select d.*, ct.first_name, ct.last_name, ct.company, ct.email, ct.phone, ct.website
       from call_dispositions d left join contacts ct on ct.id = d.contact_id
       where d.user_id = $1 and d.is_qualified order by d.called_at desc, d.id desc limit 31`,
      [userId],
    );
    const common = await api('/api/reports/qualified-leads?search=note');
    const rare = await api('/api/reports/qualified-leads?search=zebra');
    const rareFloor = await floor(
      `select d.id from call_dispositions d where d.user_id = $1 and d.is_qualified and d.notes_search like '%zebra%'
       order by d.called_at desc limit 31`,
      [userId],
    );
    const byName = await api('/api/reports/qualified-leads?search=quixotic');
    const reportsRare = await api('/api/call-reports?search=zebra');
    const reportsRareFloor = await floor(
      `select c.id from calls c where c.user_id = $1 and c.report_text like '%zebra%'
       order by c.started_at desc, c.id desc limit 51`,
      [userId],
    );

    const row = (name: string, s: ReturnType<typeof summarise>, note = '') =>
      `| ${name} | ${fmt(s.p50)} | ${fmt(s.p95)} | ${s.p95 <= 200 ? 'yes' : '**no**'}${note ? `; ${note}` : ''} |`;
    const ratio = (s: ReturnType<typeof summarise>, f: ReturnType<typeof summarise>) =>
      `${(s.p95 / f.p95).toFixed(1)}× the floor`;
    return {
      name: 'Reports at a million calls and dispositions',
      dataSize: `${CALLS.toLocaleString()} calls of one user over a year (~2,700 a day), each with a disposition (${Number(counts[0]!.qualified).toLocaleString()} qualified, ${counts[0]!.zebra} of them with the rare word), ${CONTACTS.toLocaleString()} contacts; seeded in ${(seedMs / 1000).toFixed(0)} s; day boundaries in ${ZONE}`,
      header: '| measure (ms) | p50 | p95 | p95 ≤ 200 ms |',
      rows: [
        row('Overview of today (GET /api/reports/overview)', overview, ratio(overview, overviewFloor)),
        row('floor: the day’s calls with their contacts, straight on the database', overviewFloor),
        row('Outcomes, last 7 days', week),
        row('Outcomes, last 30 days', month, ratio(month, monthFloor)),
        row('floor: 30 days of dispositions counted by day, straight on the database', monthFloor),
        row('Qualified Leads, first page', leads, ratio(leads, leadsFloor)),
        row('floor: the first page straight on the database', leadsFloor),
        row('Qualified Leads, a word in a quarter of the notes ("note")', common),
        row('Qualified Leads, a word in a handful of notes ("zebra")', rare, ratio(rare, rareFloor)),
        row('floor: the same rare-word page straight on the database', rareFloor),
        row('Qualified Leads, a contact’s surname ("quixotic")', byName),
        row(
          'Call Reports filter, a word almost no call has ("zebra")',
          reportsRare,
          ratio(reportsRare, reportsRareFloor),
        ),
        row('floor: the same filter straight on the database', reportsRareFloor),
      ],
    };
  } finally {
    await owner.end();
    await server.stop();
  }
}
