import pg from 'pg';
import { benchApi, signUpBenchUser, startBenchServer } from './bench-server.ts';
import { fmt, summarise, time, sample as sampleRuns } from './stats.ts';
import type { BenchResult } from './session-check.bench.ts';

const CAMPAIGNS = 100;
const PER_CAMPAIGN = 10_000;
const REPS = 200;
const WARMUP = 10;

/**
 * A user with 10,000 contacts, 100 e-mail campaigns and 100 SMS campaigns of 10,000 recipients each (a
 * million recipient rows of each kind). Measured through the API against the same read straight on the database in the same run: the campaign
 * list with every campaign's counts; and queuing a new 10,000-recipient campaign (create from the whole filter, then
 * Send) until the send job is queued. The mail itself goes to the outbox (no mail server: the pace of a real one
 * is not what is measured here).
 */
export async function benchCampaigns(ownerUrl: string): Promise<BenchResult> {
  const { app, base } = await startBenchServer(ownerUrl);
  const owner = new pg.Pool({ connectionString: ownerUrl, max: 4 });
  try {
    const { cookie, userId } = await signUpBenchUser(base, 'campaigner@example.com');
    const api = benchApi(base, cookie);

    const seedMs = await time(async () => {
      await owner.query(
        `insert into contacts (user_id, first_name, last_name, email)
         select $1::uuid, 'Camp' || g, 'Bench', 'camp' || g || '@example.com' from generate_series(1, ${PER_CAMPAIGN}) g`,
        [userId],
      );
      await owner.query(
        `with made as (insert into email_campaigns (user_id, name, subject, body, status)
           select $1::uuid, 'Bench campaign ' || g, 'Hi', 'Hello', case when g % 3 = 0 then 'sent' else 'draft' end
           from generate_series(1, ${CAMPAIGNS}) g returning id)
         insert into email_campaign_recipients (campaign_id, contact_id, user_id, state)
         select m.id, c.id, c.user_id, case when c.id::text < '8' then 'sent' else 'queued' end
         from made m cross join contacts c where c.user_id = $1::uuid`,
        [userId],
      );
      await owner.query(
        `with made as (insert into sms_campaigns (user_id, name, message, status)
           select $1::uuid, 'Bench texts ' || g, 'Hi', case when g % 3 = 0 then 'sent' else 'draft' end
           from generate_series(1, ${CAMPAIGNS}) g returning id)
         insert into sms_campaign_recipients (campaign_id, contact_id, user_id, state)
         select m.id, c.id, c.user_id, case when c.id::text < '8' then 'sent' else 'queued' end
         from made m cross join contacts c where c.user_id = $1::uuid`,
        [userId],
      );
      await owner.query('vacuum analyze sms_campaign_recipients');
      await owner.query('analyze sms_campaign_counts');
      await owner.query('vacuum analyze email_campaign_recipients');
      await owner.query('analyze email_campaign_counts');
      await owner.query('analyze email_campaigns');
    });

    const list = await sample(() => api('GET', '/api/email-campaigns'));
    const listFloor = await sample(async () => {
      await owner.query(
        `select id, name, campaign_type, status, subject, body, per_minute, project_id, created_at, started_at, finished_at
         from email_campaigns where user_id = $1 order by created_at desc`,
        [userId],
      );
      await owner.query(
        `select campaign_id, state, n from email_campaign_counts
         where campaign_id in (select id from email_campaigns where user_id = $1)`,
        [userId],
      );
    });
    const smsList = await sample(() => api('GET', '/api/sms-campaigns'));
    const smsFloor = await sample(async () => {
      await owner.query(
        `select id, name, status, message, per_minute, project_id, created_at, started_at, finished_at, pause_reason
         from sms_campaigns where user_id = $1 order by created_at desc`,
        [userId],
      );
      await owner.query(
        `select campaign_id, state, n from sms_campaign_counts
         where campaign_id in (select id from sms_campaigns where user_id = $1)`,
        [userId],
      );
    });
    // Count straight from the recipients, as a list without kept counts would have to.
    const countFloor = await time(() =>
      owner.query(
        `select campaign_id, state, count(*) from email_campaign_recipients where user_id = $1 group by 1, 2`,
        [userId],
      ),
    );

    const queued = await time(async () => {
      const created = (await api('POST', '/api/email-campaigns', {
        name: 'Everyone',
        subject: 'Hello {{firstName}}',
        body: 'Our offer',
        perMinute: 3000,
        selection: { allMatching: {} },
      })) as { campaign: { id: string } };
      await api('POST', `/api/email-campaigns/${created.campaign.id}/send`, {});
    });
    const queuedFloor = await time(async () => {
      const made = await owner.query<{ id: string }>(
        `insert into email_campaigns (user_id, name, subject, body, status) values ($1, 'Floor', 'Hi', 'Hello', 'sending')
         returning id`,
        [userId],
      );
      await owner.query(
        `insert into email_campaign_recipients (campaign_id, contact_id, user_id)
         select $1, id, user_id from contacts where user_id = $2 order by name_sort, id`,
        [made.rows[0]!.id, userId],
      );
    });

    const l = summarise(list);
    const lf = summarise(listFloor);
    const sl = summarise(smsList);
    const sf = summarise(smsFloor);
    return {
      name: 'E-mail and SMS campaigns at a million recipients each',
      dataSize: `${CAMPAIGNS} e-mail campaigns and ${CAMPAIGNS} SMS campaigns of ${PER_CAMPAIGN.toLocaleString()} recipients each (${(2 * CAMPAIGNS * PER_CAMPAIGN).toLocaleString()} recipient rows); seeded in ${(seedMs / 1000).toFixed(0)} s; ${REPS} sequential requests after ${WARMUP} warm-up`,
      header: '| measure | p50 | p95 | p99 | target |',
      rows: [
        `| GET /api/email-campaigns (${CAMPAIGNS} campaigns with their counts) | ${fmt(l.p50)} | ${fmt(l.p95)} | ${fmt(l.p99)} | p95 ≤ 50 ms: ${l.p95 <= 50 ? 'yes' : '**no**'} |`,
        `| floor: the campaigns and their kept counts straight on the database | ${fmt(lf.p50)} | ${fmt(lf.p95)} | ${fmt(lf.p99)} | ratio p95 ${(l.p95 / lf.p95).toFixed(1)}× |`,
        `| GET /api/sms-campaigns (${CAMPAIGNS} SMS campaigns with their counts) | ${fmt(sl.p50)} | ${fmt(sl.p95)} | ${fmt(sl.p99)} | p95 ≤ 50 ms: ${sl.p95 <= 50 ? 'yes' : '**no**'} |`,
        `| floor: the SMS campaigns and their kept counts straight on the database | ${fmt(sf.p50)} | ${fmt(sf.p95)} | ${fmt(sf.p99)} | ratio p95 ${(sl.p95 / sf.p95).toFixed(1)}× |`,
        `| for scale: counting the million recipients instead of keeping counts | ${fmt(countFloor)} | | | |`,
        `| queue a ${PER_CAMPAIGN.toLocaleString()}-recipient campaign: create from the whole filter, then Send | ${fmt(queued)} | | | ≤ 5 s: ${queued <= 5000 ? 'yes' : '**no**'} |`,
        `| floor: the campaign and its recipients inserted straight on the database | ${fmt(queuedFloor)} | | | ratio ${(queued / queuedFloor).toFixed(1)}× |`,
      ],
    };
  } finally {
    await owner.end();
    await app.close();
  }
}

const sample = (run: () => Promise<unknown>) => sampleRuns(run, REPS, WARMUP);
