import { createHmac } from 'node:crypto';
import pg from 'pg';
import { signSimulatorFields } from '../server/telephony/simulator.ts';
import { signUpBenchUser, startBenchServer } from './bench-server.ts';
import { openEventStream } from './event-stream.ts';
import type { BenchResult } from './session-check.bench.ts';
import { fmt, summarise, time } from './stats.ts';

const USERS = 200;
const CONTACTS_PER_USER = 500;
const CALLS = 400;
const WARMUP = 20;
const TARGET_P95_MS = 300;

type User = { cookie: string; userId: string; number: string; stream: ReturnType<typeof openEventStream> };

/**
 * A call coming in to one of 200 users' numbers (decision 028), with 200 browser sessions of those users holding
 * their event streams open: from the provider's voice webhook to the call in the user's ringing list (the change
 * event arrives, the browser refetches GET /api/calls/incoming). Against the floor: the same statements (who has
 * the number, their contact, the recording setting, the browser-presence lock, the insert, the ringing list) sent
 * straight to PostgreSQL.
 */
export async function benchIncomingCalls(ownerUrl: string): Promise<BenchResult> {
  const { app, base } = await startBenchServer(ownerUrl, {
    trustProxy: 1,
    telephony: { provider: 'simulator', timeScale: 1 },
  });
  const owner = new pg.Pool({ connectionString: ownerUrl, max: 4 });
  const secret = createHmac('sha256', 'bench-session-secret-long-enough-0123456789')
    .update('telephony-simulator')
    .digest('base64url');
  const users: User[] = [];
  try {
    for (let i = 0; i < USERS; i++) {
      const { cookie, userId } = await signUpBenchUser(
        base,
        `inbound-${i}@example.com`,
        `10.7.${Math.floor(i / 250)}.${(i % 250) + 1}`,
      );
      const digits = String(i).padStart(4, '0');
      const number = `+1303555${digits}`;
      await owner.query(`update user_profiles set role = 'user' where id = $1 and role = 'pending'`, [
        userId,
      ]);
      await owner.query(
        `insert into caller_ids (user_id, number, number_e164, is_default) values ($1, $2, $3, true)`,
        [userId, `(303) 555-${digits}`, number],
      );
      await owner.query(
        `insert into contacts (user_id, first_name, last_name, email, phone, phone_e164)
         select $1::uuid, 'Caller' || g, 'Bench', 'caller' || g || '@example.com',
           '(720) ' || lpad(($2::int * ${CONTACTS_PER_USER} + g)::text, 7, '0'),
           '+1720' || lpad(($2::int * ${CONTACTS_PER_USER} + g)::text, 7, '0')
         from generate_series(1, ${CONTACTS_PER_USER}) g`,
        [userId, i],
      );
      users.push({ cookie, userId, number, stream: openEventStream(base, cookie) });
    }
    await owner.query('analyze');
    await Promise.all(users.map((u) => u.stream.ready));

    const webhook: number[] = [];
    const ringing: number[] = [];
    let missedEvents = 0;
    for (let i = 0; i < CALLS + WARMUP; i++) {
      const index = (i * 37) % USERS;
      const user = users[index]!;
      const from = `+1720${String(index * CONTACTS_PER_USER + 1 + (i % CONTACTS_PER_USER)).padStart(7, '0')}`;
      const fields = { CallSid: `SIMBENCH${i}`, From: from, To: user.number };
      const event = user.stream.next(5000);
      const start = process.hrtime.bigint();
      const answered = await fetch(`${base}/api/telephony/simulator/incoming`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-simulator-signature': signSimulatorFields(secret, fields),
        },
        body: new URLSearchParams(fields).toString(),
      });
      const reply = await answered.text();
      if (!reply.includes('"ring"')) throw new Error(`the webhook did not ring: ${answered.status} ${reply}`);
      const webhookMs = Number(process.hrtime.bigint() - start) / 1e6;
      if (!(await event)) missedEvents++;
      const list = await fetch(`${base}/api/calls/incoming`, { headers: { cookie: user.cookie } });
      const body = (await list.json()) as { calls: { call: { from: string } }[] };
      if (!body.calls.some((c) => c.call.from === from))
        throw new Error('the call is not in the ringing list');
      const ringingMs = Number(process.hrtime.bigint() - start) / 1e6;
      if (i >= WARMUP) {
        webhook.push(webhookMs);
        ringing.push(ringingMs);
      }
      // The call ends (missed), as it would after its 25 s: each user's list stays as a browser finds it.
      await owner.query(`update calls set status = 'no-answer' where provider_call_id = $1`, [
        fields.CallSid,
      ]);
    }

    // The floor: the statements of one incoming call, sent straight to PostgreSQL by the owner.
    const floor: number[] = [];
    const client = await owner.connect();
    try {
      for (let i = 0; i < CALLS + WARMUP; i++) {
        const index = (i * 37) % USERS;
        const user = users[index]!;
        const from = `+1720${String(index * CONTACTS_PER_USER + 1 + (i % CONTACTS_PER_USER)).padStart(7, '0')}`;
        const ms = await time(async () => {
          await client.query(
            `select ci.user_id, ci.created_at,
               (select max(c.started_at) from calls c where c.from_number = ci.number_e164 and c.to_number = $2
                 and c.user_id = ci.user_id and c.direction = 'outbound') as last_called
             from caller_ids ci join user_profiles p on p.id = ci.user_id
             where ci.number_e164 = $1 and p.role in ('user', 'admin') and p.deactivated_at is null`,
            [user.number, from],
          );
          const contact = await client.query<{ id: string }>(
            `select id from contacts where user_id = $1 and phone_e164 = $2 order by updated_at desc limit 1`,
            [user.userId, from],
          );
          // Whether to record it, and whether a browser of the user is open to ring.
          await client.query(`select record_calls from recording_settings where user_id = $1`, [user.userId]);
          await client.query(
            `with lock as (select hashtextextended($1, 0) as key)
             select exists (select 1 from pg_locks l, lock where l.locktype = 'advisory' and l.granted
               and l.objsubid = 1 and l.classid = oid((lock.key >> 32) & 4294967295)
               and l.objid = oid(lock.key & 4294967295)) as open`,
            [`callcrm-browser:${user.userId}`],
          );
          const inserted = await client.query<{ id: string }>(
            `insert into calls (user_id, contact_id, request_id, provider, provider_call_id, from_number, to_number,
               status, direction) values ($1, $2, substr(md5(random()::text), 1, 8), 'simulator', $3, $4, $5,
               'ringing', 'inbound') returning id`,
            [user.userId, contact.rows[0]?.id ?? null, `SIMFLOOR${i}`, from, user.number],
          );
          await client.query(
            `select c.*, k.first_name, d.disposition from calls c
             left join contacts k on k.id = c.contact_id
             left join lateral (select disposition from call_dispositions where contact_id = k.id
               order by called_at desc limit 1) d on true
             where c.user_id = $1 and c.direction = 'inbound' and c.status in ('queued', 'ringing')`,
            [user.userId],
          );
          await client.query(`update calls set status = 'no-answer' where id = $1`, [inserted.rows[0]!.id]);
        });
        if (i >= WARMUP) floor.push(ms);
      }
    } finally {
      client.release();
    }

    const w = summarise(webhook);
    const r = summarise(ringing);
    const f = summarise(floor);
    const rows = [
      `| voice webhook answered (call recorded, told to ring) | ${fmt(w.p50)} | ${fmt(w.p95)} | ${fmt(w.p99)} |`,
      `| webhook → change event → GET /api/calls/incoming lists it | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} |`,
      `| raw SQL floor (routing, contact, recording, presence, insert, ringing list) | ${fmt(f.p50)} | ${fmt(f.p95)} | ${fmt(f.p99)} |`,
      `| ratio ringing / floor | ${(r.p50 / f.p50).toFixed(1)}× | ${(r.p95 / f.p95).toFixed(1)}× | ${(r.p99 / f.p99).toFixed(1)}× |`,
      '',
      `Target: ringing in the browser p95 ≤ ${TARGET_P95_MS} ms server side: ${r.p95 <= TARGET_P95_MS ? 'met' : 'NOT met'} (${fmt(r.p95)} ms). ` +
        `Change events that did not arrive within 5 s: ${missedEvents} of ${CALLS + WARMUP}.`,
    ];
    return {
      name: `Inbound calls: ${USERS} users, ${USERS} open event streams`,
      dataSize: `${USERS} users each with a caller ID, ${CONTACTS_PER_USER} contacts and a signed-in browser holding its event stream open (${USERS * CONTACTS_PER_USER} contacts); ${CALLS} incoming calls in turn after ${WARMUP} warm-up, each to one user's number from one of their contacts`,
      header: '| measure | p50 | p95 | p99 |',
      rows,
    };
  } finally {
    for (const user of users) user.stream.close();
    await owner.end();
    await app.close();
  }
}
