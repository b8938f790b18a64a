import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { allowUnknownLocalTime, benchApi, signUpBenchUser, startBenchServer } from './bench-server.ts';
import { fmt, summarise, time, sample as sampleRuns } from './stats.ts';
import type { BenchResult } from './session-check.bench.ts';
import { walkFloorStep } from './walk-floor.ts';

const CONTACTS = 1_000_000;
const QUEUES = 100;
const PER_QUEUE = 1_000;
const REPS = 200;
const WARMUP = 10;

/**
 * A user with 1,000,000 contacts, all in the default queue, and 100 more queues. Measured through the API
 * (HTTP, session, row-level security) against the same statements straight on the database in the same run:
 * the queue list with remaining/total, the next contact right after a disposition (the walk), and creating a queue
 * from every one of the 1,000,000 contacts in one request.
 */
export async function benchQueues(ownerUrl: string): Promise<BenchResult> {
  const { app, base } = await startBenchServer(ownerUrl);
  const owner = new pg.Pool({ connectionString: ownerUrl, max: 4 });
  try {
    const { cookie, userId } = await signUpBenchUser(base, 'walker@example.com');
    await allowUnknownLocalTime(base, cookie);
    const api = benchApi(base, cookie);

    const seedMs = await time(async () => {
      await owner.query(
        `insert into contacts (user_id, first_name, last_name, email, phone, phone_e164, created_at, updated_at, last_synced_at)
         select $1::uuid, 'Walk' || g, 'Bench', 'walk' || g || '@example.com',
           '555' || lpad((g % 10000000)::text, 7, '0'), '+1555' || lpad((g % 10000000)::text, 7, '0'),
           now() - make_interval(secs => g), now(), now()
         from generate_series(1, ${CONTACTS}) g`,
        [userId],
      );
      await api('GET', '/api/queues'); // makes the default queue
      await owner.query(
        `insert into queue_members (queue_id, contact_id, user_id)
         select q.id, c.id, c.user_id from contacts c join power_dialer_queues q on q.user_id = c.user_id
         where c.user_id = $1 and q.queue_id = 'default-all-contacts' order by c.created_at`,
        [userId],
      );
      await owner.query(
        `with made as (insert into power_dialer_queues (queue_id, queue_name, user_id)
           select 'queue-' || gen_random_uuid(), 'Bench queue ' || g, $1::uuid from generate_series(1, ${QUEUES}) g
           returning id),
         numbered as (select id, row_number() over () as n from made)
         insert into queue_members (queue_id, contact_id, user_id)
         select q.id, c.id, c.user_id from numbered q
         join lateral (select id, user_id from contacts where user_id = $1::uuid
                       order by created_at offset (q.n - 1) * ${PER_QUEUE} limit ${PER_QUEUE}) c on true`,
        [userId],
      );
      await owner.query('vacuum analyze contacts');
      await owner.query('vacuum analyze queue_members');
      await owner.query('analyze power_dialer_queues');
    });

    // The queue list, as the Campaigns tab and the queue picker read it.
    const list = await sample(() => api('GET', '/api/queues'));
    const listFloor = await sample(() =>
      owner.query(
        `select q.id, q.queue_id, q.queue_name, q.created_at, q.project_id,
           q.total_count + coalesce(aside.total, 0), q.completed_count + coalesce(aside.completed, 0)
         from power_dialer_queues q
         left join lateral (select sum(c.total)::int as total, sum(c.completed)::int as completed
           from queue_count_changes c where c.queue_id = q.id) aside on true
         where q.user_id = $1 order by q.created_at desc`,
        [userId],
      ),
    );
    const defaultQueue = (
      await owner.query<{ id: string }>(
        `select id from power_dialer_queues where user_id = $1 and queue_id = 'default-all-contacts'`,
        [userId],
      )
    ).rows[0]!.id;

    // The walk of the default queue: each disposition saved with the queue, then the next contact asked for.
    const walker = randomUUID();
    let held = ((await api('POST', `/api/queues/${defaultQueue}/walk`, { walker })).contact as { id: string })
      .id;
    const dispositions: number[] = [];
    const walks: number[] = [];
    for (let i = 0; i < REPS + WARMUP; i++) {
      const saved = await time(() =>
        api('POST', '/api/dispositions', {
          contactId: held,
          disposition: 'no-answer',
          queueId: defaultQueue,
        }),
      );
      let step: Record<string, unknown> = {};
      const walked = await time(async () => {
        step = await api('POST', `/api/queues/${defaultQueue}/walk`, { walker });
      });
      held = (step.contact as { id: string }).id;
      if (i >= WARMUP) {
        dispositions.push(saved);
        walks.push(walked);
      }
    }
    const walkFloor = await sample(() =>
      walkFloorStep(
        owner,
        defaultQueue,
        walker,
        'c.id, c.first_name, c.last_name, c.phone, c.email, c.company, c.title',
      ),
    );

    // A queue of all 1,000,000 contacts: the request answers with the queue filling in the background; the rep can
    // call its first contact as soon as the first chunk is in, and calls on while it fills. Against the one insert
    // that does the whole job in the same run.
    const createdAt = performance.now();
    let bigId = '';
    const bigCreate = await time(async () => {
      bigId = (
        (await api('POST', '/api/queues', { name: 'Everyone', selection: { allMatching: {} } })).queue as {
          id: string;
        }
      ).id;
    });
    const bigWalker = randomUUID();
    let firstHeld: string | null = null;
    while (!firstHeld) {
      const step = await api('POST', `/api/queues/${bigId}/walk`, { walker: bigWalker });
      firstHeld = (step.contact as { id: string } | null)?.id ?? null;
      if (!firstHeld) await new Promise((r) => setTimeout(r, 20));
    }
    const firstCallable = performance.now() - createdAt;
    const walksWhileFilling: number[] = [];
    let filling = true;
    while (filling) {
      await api('POST', '/api/dispositions', {
        contactId: firstHeld,
        disposition: 'no-answer',
        queueId: bigId,
      });
      let step: Record<string, unknown> = {};
      walksWhileFilling.push(
        await time(async () => {
          step = await api('POST', `/api/queues/${bigId}/walk`, { walker: bigWalker });
        }),
      );
      firstHeld = (step.contact as { id: string }).id;
      filling = (step.queue as { filling: unknown }).filling !== null;
    }
    const bigFilled = performance.now() - createdAt;
    const bigFloor = await time(async () => {
      const made = await owner.query<{ id: string }>(
        `insert into power_dialer_queues (queue_id, queue_name, user_id) values ($1, 'Floor', $2) returning id`,
        [`queue-${randomUUID()}`, userId],
      );
      await owner.query(
        `insert into queue_members (queue_id, contact_id, user_id)
         select $1, c.id, c.user_id from contacts c where c.user_id = $2
         order by c.name_sort, c.id
         on conflict do nothing`,
        [made.rows[0]!.id, userId],
      );
    });
    const listAfter = await sample(() => api('GET', '/api/queues'));

    const l = summarise(list);
    const lf = summarise(listFloor);
    const la = summarise(listAfter);
    const w = summarise(walks);
    const wf = summarise(walkFloor);
    const d = summarise(dispositions);
    const ww = { ...summarise(walksWhileFilling), n: walksWhileFilling.length };
    return {
      name: 'Call queues at a million contacts',
      dataSize: `${CONTACTS.toLocaleString()} contacts, all in the default queue, plus ${QUEUES} queues of ${PER_QUEUE.toLocaleString()}; seeded in ${(seedMs / 1000).toFixed(0)} s; ${REPS} sequential requests per case after ${WARMUP} warm-up`,
      header: '| measure | p50 | p95 | p99 | target |',
      rows: [
        `| GET /api/queues (${QUEUES + 1} queues with remaining/total) | ${fmt(l.p50)} | ${fmt(l.p95)} | ${fmt(l.p99)} | p95 ≤ 50 ms: ${l.p95 <= 50 ? 'yes' : '**no**'} |`,
        `| floor: the list straight on the database | ${fmt(lf.p50)} | ${fmt(lf.p95)} | ${fmt(lf.p99)} | ratio p95 ${(l.p95 / lf.p95).toFixed(1)}× |`,
        `| next contact after a disposition (POST …/walk, default queue) | ${fmt(w.p50)} | ${fmt(w.p95)} | ${fmt(w.p99)} | p95 ≤ 100 ms: ${w.p95 <= 100 ? 'yes' : '**no**'} |`,
        `| floor: lock, look ahead, hold, counts straight on the database | ${fmt(wf.p50)} | ${fmt(wf.p95)} | ${fmt(wf.p99)} | ratio p95 ${(w.p95 / wf.p95).toFixed(1)}× |`,
        `| the disposition itself (POST /api/dispositions with the queue) | ${fmt(d.p50)} | ${fmt(d.p95)} | ${fmt(d.p99)} | |`,
        `| create a queue from all ${CONTACTS.toLocaleString()} matching contacts: the request (answers filling) | ${fmt(bigCreate)} | | | ≤ 10 s: ${bigCreate <= 10_000 ? 'yes' : '**no**'} |`,
        `| … until its first contact can be called (POST …/walk holds one) | ${fmt(firstCallable)} | | | ≤ 10 s: ${firstCallable <= 10_000 ? 'yes' : '**no**'} |`,
        `| … until all ${CONTACTS.toLocaleString()} are in (background job, calling on meanwhile) | ${fmt(bigFilled)} | | | |`,
        `| next contact after a disposition while it fills (${ww.n} walks) | ${fmt(ww.p50)} | ${fmt(ww.p95)} | ${fmt(ww.p99)} | p95 ≤ 100 ms: ${ww.p95 <= 100 ? 'yes' : '**no**'} |`,
        `| floor: the whole insert in one statement straight on the database | ${fmt(bigFloor)} | | | fill ratio ${(bigFilled / bigFloor).toFixed(1)}× |`,
        `| GET /api/queues afterwards (two queues of a million) | ${fmt(la.p50)} | ${fmt(la.p95)} | ${fmt(la.p99)} | p95 ≤ 50 ms: ${la.p95 <= 50 ? 'yes' : '**no**'} |`,
      ],
    };
  } finally {
    await owner.end();
    await app.close();
  }
}

const sample = (run: () => Promise<unknown>) => sampleRuns(run, REPS, WARMUP);
