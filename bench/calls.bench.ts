import { newRequestId } from '../domain/calls/call-guard.ts';
import pg from 'pg';
import { allowUnknownLocalTime, signUpBenchUser, startBenchServer } from './bench-server.ts';
import { fmt, summarise, time } from './stats.ts';
import type { BenchResult } from './session-check.bench.ts';
import { signSimulatorFields } from '../server/telephony/simulator.ts';
import { createHmac } from 'node:crypto';

const CALLS = 300;
const WEBHOOK_RATE = 50;
const WEBHOOK_SECONDS = 20;

/**
 * Click-to-call on the simulator (the server accepts and hands the call to the provider: POST /api/calls,
 * after the browser's own 250 ms delay, which is not the server's) and status webhooks at 50 a second while the call
 * logs dashboard is open, each against its floor in the same run: the same statements straight on the database.
 */
export async function benchCalls(ownerUrl: string): Promise<BenchResult> {
  const { app, base } = await startBenchServer(ownerUrl);
  const owner = new pg.Pool({ connectionString: ownerUrl, max: 4 });
  try {
    const headers = { 'content-type': 'application/json', origin: 'http://localhost:3000' };
    const { cookie, userId } = await signUpBenchUser(base, 'caller@example.com');
    await allowUnknownLocalTime(base, cookie);

    const place: number[] = [];
    for (let i = 0; i < CALLS + 10; i++) {
      const to = `+1555${String(1_000_000 + i).slice(1)}7`; // ends in 7: rings and is answered
      const ms = await time(async () => {
        const r = await fetch(`${base}/api/calls`, {
          method: 'POST',
          headers: { ...headers, cookie },
          body: JSON.stringify({ requestId: newRequestId(), to }),
        });
        if (r.status !== 201) throw new Error(`call failed: ${r.status} ${await r.text()}`);
        await r.text();
      });
      if (i >= 10) place.push(ms);
    }
    const floor: number[] = [];
    const client = await owner.connect();
    try {
      for (let i = 0; i < CALLS + 10; i++) {
        const ms = await time(async () => {
          await client.query('begin');
          await client.query(`select pg_advisory_xact_lock(hashtextextended($1, 0))`, [`calls:${userId}`]);
          await client.query(`select taken_at from call_locks where user_id = $1`, [userId]);
          await client.query(`select record_calls from recording_settings where user_id = $1`, [userId]);
          await client.query(
            `select to_number from calls where user_id = $1 and to_number = $2 and started_at > now() - interval '15 seconds'`,
            [userId, '+15559999997'],
          );
          await client.query(
            `insert into call_locks (user_id, request_id, taken_at) values ($1, 'floor000', now()) on conflict (user_id) do update set taken_at = now()`,
            [userId],
          );
          const id = (
            await client.query(
              `insert into calls (user_id, request_id, provider, from_number, to_number, updated_at) values ($1, $2, 'simulator', '+15550100000', '+15559999997', now()) returning id`,
              [userId, newRequestId()],
            )
          ).rows[0].id as string;
          await client.query('commit');
          await client.query(`update calls set provider_call_id = $2, status = 'initiated' where id = $1`, [
            id,
            `FLOOR${i}`,
          ]);
          await client.query(`delete from call_locks where user_id = $1 and request_id = 'floor000'`, [
            userId,
          ]);
        });
        if (i >= 10) floor.push(ms);
      }
    } finally {
      client.release();
    }

    // Webhooks at 50 a second for 20 s, while the dashboard's day log is fetched as the page does (and more often).
    const secret = createHmac('sha256', 'bench-session-secret-long-enough-0123456789')
      .update('telephony-simulator')
      .digest('base64url');
    const sids = (
      await owner.query<{ provider_call_id: string }>(
        `select provider_call_id from calls where user_id = $1 and provider_call_id like 'SIM%'`,
        [userId],
      )
    ).rows.map((r) => r.provider_call_id);
    const hooks: number[] = [];
    let dashboardOpen = true;
    const dayFrom = new Date(Date.now() - 12 * 3600 * 1000).toISOString();
    const dayTo = new Date(Date.now() + 12 * 3600 * 1000).toISOString();
    const dashboard = (async () => {
      while (dashboardOpen) {
        await (
          await fetch(`${base}/api/calls/day?from=${dayFrom}&to=${dayTo}`, { headers: { cookie } })
        ).text();
        await new Promise((r) => setTimeout(r, 1000));
      }
    })();
    const statuses = ['ringing', 'in-progress', 'completed'];
    const sends: Promise<void>[] = [];
    for (let i = 0; i < WEBHOOK_RATE * WEBHOOK_SECONDS; i++) {
      const fields = {
        CallSid: sids[i % sids.length]!,
        CallStatus: statuses[Math.floor(i / sids.length) % 3]!,
        CallDuration: '12',
      };
      const body = new URLSearchParams(fields).toString();
      sends.push(
        time(async () => {
          const r = await fetch(`${base}/api/telephony/simulator/status`, {
            method: 'POST',
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              'x-simulator-signature': signSimulatorFields(secret, fields),
            },
            body,
          });
          if (r.status !== 204) throw new Error(`webhook: ${r.status}`);
        }).then((ms) => void hooks.push(ms)),
      );
      await new Promise((r) => setTimeout(r, 1000 / WEBHOOK_RATE));
    }
    await Promise.all(sends);
    dashboardOpen = false;
    await dashboard;
    const hookFloor: number[] = [];
    for (let i = 0; i < 500; i++) {
      hookFloor.push(
        await time(() =>
          owner.query(
            `update calls set status = status, updated_at = now() where provider = 'simulator' and provider_call_id = $1`,
            [sids[i % sids.length]],
          ),
        ),
      );
    }
    const p = summarise(place);
    const pf = summarise(floor);
    const h = summarise(hooks);
    const hf = summarise(hookFloor);
    return {
      name: 'Calling on the simulator',
      dataSize: `${CALLS} click-to-calls to different numbers after 10 warm-up; ${WEBHOOK_RATE * WEBHOOK_SECONDS} status webhooks at ${WEBHOOK_RATE}/s for ${WEBHOOK_SECONDS} s over ${sids.length} calls, the day's call log fetched every second meanwhile`,
      header: '| measure | p50 | p95 | p99 | target |',
      rows: [
        `| POST /api/calls (accepted and handed to the provider) | ${fmt(p.p50)} | ${fmt(p.p95)} | ${fmt(p.p99)} | p95 ≤ 300 ms: ${p.p95 <= 300 ? 'yes' : '**no**'} |`,
        `| floor: the same statements straight on the database | ${fmt(pf.p50)} | ${fmt(pf.p95)} | ${fmt(pf.p99)} | ratio p95 ${(p.p95 / pf.p95).toFixed(1)}× |`,
        `| status webhook at ${WEBHOOK_RATE}/s, dashboard open | ${fmt(h.p50)} | ${fmt(h.p95)} | ${fmt(h.p99)} | p99 ≤ 100 ms: ${h.p99 <= 100 ? 'yes' : '**no**'} |`,
        `| floor: the status update straight on the database | ${fmt(hf.p50)} | ${fmt(hf.p95)} | ${fmt(hf.p99)} | ratio p99 ${(h.p99 / hf.p99).toFixed(1)}× |`,
      ],
    };
  } finally {
    await owner.end();
    await app.close();
  }
}
