import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { appUrlFrom, createDb, withActor } from '../server/db/database.ts';
import { decideForContacts } from '../server/modules/consent/public.ts';
import { TEST_APP_PASSWORD, TEST_APP_ROLE } from '../server/test/test-constants.ts';
import { benchApi, signUpBenchUser, startBenchServer } from './bench-server.ts';
import { fmt, summarise, time, sample as sampleRuns } from './stats.ts';
import type { BenchResult } from './session-check.bench.ts';
import { walkFloorStep } from './walk-floor.ts';

const CONTACTS = 1_000_000;
const BATCH = 10_000;
const REPS = 200;
const WARMUP = 10;
/** Area codes the contacts' numbers are spread over: Denver, New York, Miami (Florida's rules), Seattle, Anchorage. */
const AREA_CODES = ['303', '212', '305', '206', '907'];

/** A whole-hour zone where the local hour is one of `hours` right now, so the figures hold at any time of day. */
function zoneWhereHourIs(hours: number[]): string {
  const now = new Date();
  for (const zone of Intl.supportedValuesOf('timeZone')) {
    const hour = Number(
      new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', hourCycle: 'h23' }).format(now),
    );
    const minute = Number(
      new Intl.DateTimeFormat('en-US', { timeZone: zone, minute: 'numeric' }).format(now),
    );
    if (hours.includes(hour) && minute === now.getUTCMinutes()) return zone;
  }
  throw new Error(`no zone at hours ${hours.join(', ')}`);
}

/**
 * The consent gate at scale: a user with 1,000,000 contacts on real numbers over five area codes, all in the default
 * queue, 60 % of them (every member whose number ends in 0 to 5, interleaved through the queue) in a time zone where
 * it is the middle of the night right now, the others where it is the middle of the day. Measured: the gate's
 * set-at-once reader for a send batch of 10,000 contacts (in the server's process, as a send loop calls it), against
 * the one query that reads the same facts; and the next contact after a disposition (the walk, through the API),
 * which passes over the sleeping ones, against the walk's statements straight on the database.
 */
export async function benchConsent(ownerUrl: string): Promise<BenchResult> {
  const { app, base } = await startBenchServer(ownerUrl);
  const owner = new pg.Pool({ connectionString: ownerUrl, max: 4 });
  const db = createDb(appUrlFrom(ownerUrl, TEST_APP_ROLE, TEST_APP_PASSWORD), 4);
  try {
    const { cookie, userId } = await signUpBenchUser(base, 'gate@example.com');
    const api = benchApi(base, cookie);
    const night = zoneWhereHourIs([1, 2, 3]);
    const day = zoneWhereHourIs([11, 12, 13]);

    const seedMs = await time(async () => {
      await owner.query(
        `insert into contacts (user_id, first_name, last_name, email, phone, phone_e164, time_zone,
           created_at, updated_at, last_synced_at)
         select $1::uuid, 'Gate' || g, 'Bench', 'gate' || g || '@example.com', n, n,
           case when g % 10 < 6 then $2 else $3 end, now() - make_interval(secs => g), now(), now()
         from generate_series(1, ${CONTACTS}) g,
           lateral (select '+1' || ($4::text[])[1 + g % ${AREA_CODES.length}] || (2000000 + g)::text as n) x`,
        [userId, night, day, AREA_CODES],
      );
      await api('GET', '/api/queues'); // makes the default queue
      await owner.query(
        `insert into queue_members (queue_id, contact_id, user_id)
         select q.id, c.id, c.user_id from contacts c join power_dialer_queues q on q.user_id = c.user_id
         where c.user_id = $1 and q.queue_id = 'default-all-contacts' order by c.created_at`,
        [userId],
      );
      await owner.query(
        `insert into do_not_call (user_id, number_e164)
         select $1, phone_e164 from contacts where user_id = $1 order by created_at limit 5000 on conflict do nothing`,
        [userId],
      );
      await owner.query('vacuum analyze contacts');
      await owner.query('vacuum analyze queue_members');
    });

    // The gate for a send batch: 10,000 contacts at once, a different batch each time.
    const ids = (
      await owner.query<{ id: string }>('select id from contacts where user_id = $1 order by created_at', [
        userId,
      ])
    ).rows.map((r) => r.id);
    let round = 0;
    const nextBatch = () => {
      const start = (round++ * BATCH) % (ids.length - BATCH);
      return ids.slice(start, start + BATCH);
    };
    let tally = '';
    const gate = await sampleRuns(
      async () => {
        const batch = nextBatch();
        const decided = await withActor(db, { kind: 'user', userId }, (trx) =>
          decideForContacts(trx, userId, batch, 'text', new Date()),
        );
        const counts = new Map<string, number>();
        for (const { decision } of decided.values()) {
          const code = decision.allowed ? 'allowed' : decision.code;
          counts.set(code, (counts.get(code) ?? 0) + 1);
        }
        tally = [...counts]
          .map(([code, n]) => `${code} ${Math.round((n / batch.length) * 100)} %`)
          .join(', ');
      },
      50,
      5,
    );
    const gateFloor = await sampleRuns(
      () =>
        owner.query(
          `select c.id, c.phone, c.phone_e164, c.email, c.time_zone, c.state, d.added_at, o.created_at, u.created_at
           from contacts c
           left join do_not_call d on d.user_id = c.user_id and d.number_e164 = c.phone_e164
           left join email_unsubscribes u on u.user_id = c.user_id and u.email = c.email_key
           left join lateral (select created_at from sms_opt_outs o where o.phone = c.phone_e164
             and (o.user_id is null or o.user_id = $1) order by created_at limit 1) o on true
           where c.user_id = $1 and c.id = any($2::uuid[])`,
          [userId, nextBatch()],
        ),
      50,
      5,
    );

    // The walk: each disposition saved with the queue, then the next contact asked for.
    const defaultQueue = (
      await owner.query<{ id: string }>(
        `select id from power_dialer_queues where user_id = $1 and queue_id = 'default-all-contacts'`,
        [userId],
      )
    ).rows[0]!.id;
    const walker = randomUUID();
    let step = await api('POST', `/api/queues/${defaultQueue}/walk`, { walker });
    let held = (step.contact as { id: string }).id;
    const walks: number[] = [];
    let passedOver = 0;
    for (let i = 0; i < REPS + WARMUP; i++) {
      await api('POST', '/api/dispositions', {
        contactId: held,
        disposition: 'no-answer',
        queueId: defaultQueue,
      });
      const walked = await time(async () => {
        step = await api('POST', `/api/queues/${defaultQueue}/walk`, { walker });
      });
      held = (step.contact as { id: string }).id;
      passedOver = (step.waiting as { count: number } | null)?.count ?? 0;
      if (i >= WARMUP) walks.push(walked);
    }
    const walkFloor = await sampleRuns(
      () =>
        walkFloorStep(
          owner,
          defaultQueue,
          walker,
          'c.id, c.first_name, c.last_name, c.phone, c.phone_e164, c.email, c.time_zone, c.state',
        ),
      REPS,
      WARMUP,
    );

    const g = summarise(gate);
    const gf = summarise(gateFloor);
    const w = summarise(walks);
    const wf = summarise(walkFloor);
    return {
      name: 'Consent gate at a million contacts',
      dataSize: `${CONTACTS.toLocaleString()} contacts over area codes ${AREA_CODES.join(', ')}, 60 % in ${night} (night), 40 % in ${day} (day), a number each, the first 5,000 numbers on the do-not-call list, all in the default queue; seeded in ${(seedMs / 1000).toFixed(0)} s; the walk ${REPS} sequential requests after ${WARMUP} warm-up`,
      header: '| measure | p50 | p95 | p99 | target |',
      rows: [
        `| the gate for a send batch of ${BATCH.toLocaleString()} contacts (texts; ${tally}) | ${fmt(g.p50)} | ${fmt(g.p95)} | ${fmt(g.p99)} | p95 ≤ 20 ms: ${g.p95 <= 20 ? 'yes' : '**no**'} |`,
        `| floor: the facts of ${BATCH.toLocaleString()} contacts in one query straight on the database | ${fmt(gf.p50)} | ${fmt(gf.p95)} | ${fmt(gf.p99)} | ratio p95 ${(g.p95 / gf.p95).toFixed(1)}× |`,
        `| next contact after a disposition, 60 % outside their hours (last step passed over ${passedOver}) | ${fmt(w.p50)} | ${fmt(w.p95)} | ${fmt(w.p99)} | p95 ≤ 100 ms: ${w.p95 <= 100 ? 'yes' : '**no**'} |`,
        `| floor: lock, look ahead 50, hold, counts straight on the database | ${fmt(wf.p50)} | ${fmt(wf.p95)} | ${fmt(wf.p99)} | ratio p95 ${(w.p95 / wf.p95).toFixed(1)}× |`,
      ],
    };
  } finally {
    await db.destroy();
    await owner.end();
    await app.close();
  }
}
