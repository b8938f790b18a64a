import { createHash } from 'node:crypto';
import pg from 'pg';
import { signUpBenchUser, startBenchServer } from './bench-server.ts';
import { fmt, summarise, time } from './stats.ts';
import type { BenchResult } from './session-check.bench.ts';

const USERS = 10_000;
const REQUESTS = 2_000;
const ROUTE = '/api/notification-settings';

/**
 * What a personal API key costs over a session (decision 033): the same light route, GET /api/notification-settings, asked
 * alternately with the session cookie and with a key, so both share the machine's moments alike. A key request
 * finds and counts its key in one UPDATE and reads the profile; a session request has better-auth read the session
 * and the profile is read. Floors: those lookups sent straight to PostgreSQL. Target: a key request p95 at most
 * 2 ms above a session request's.
 */
export async function benchApiKeys(ownerUrl: string): Promise<BenchResult> {
  const { app, base } = await startBenchServer(ownerUrl, { apiKeyRequestsPerMinute: 1_000_000 });
  const owner = new pg.Pool({ connectionString: ownerUrl, max: 4 });
  try {
    const { cookie, userId } = await signUpBenchUser(base, 'bench@example.com');
    // Volume: many accounts, each with a live session and a key.
    await owner.query(`
      insert into auth_users (id, email) select gen_random_uuid(), 'seed-' || g || '@example.com' from generate_series(1, ${USERS}) g;
      insert into user_profiles (id, email, role) select id, email, 'user' from auth_users where email like 'seed-%';
      insert into auth_sessions (id, token, user_id, expires_at)
        select gen_random_uuid(), md5(id::text), id, now() + interval '7 days' from auth_users where email like 'seed-%';
      insert into api_keys (user_id, name, scope, token_hash, hint)
        select id, 'seed', 'read', encode(sha256(id::text::bytea), 'hex'), 'seed' from auth_users where email like 'seed-%';
      analyze;`);
    const made = await fetch(`${base}/api/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000', cookie },
      body: JSON.stringify({ name: 'bench', scope: 'read' }),
    });
    const { secret } = (await made.json()) as { secret: string };
    const viaSession = { cookie };
    const viaKey = { authorization: `Bearer ${secret}` };

    const session: number[] = [];
    const key: number[] = [];
    const ask = (headers: Record<string, string>) =>
      time(async () => {
        const r = await fetch(`${base}${ROUTE}`, { headers });
        if (r.status !== 200) throw new Error(`status ${r.status}: ${await r.text()}`);
        await r.text();
      });
    for (let i = 0; i < REQUESTS + 100; i++) {
      const s = await ask(viaSession);
      const k = await ask(viaKey);
      if (i >= 100) {
        session.push(s);
        key.push(k);
      }
    }

    const { token } = (
      await owner.query<{ token: string }>(`select token from auth_sessions where user_id = $1 limit 1`, [
        userId,
      ])
    ).rows[0]!;
    const hash = createHash('sha256').update(secret).digest('hex');
    const sessionFloor: number[] = [];
    const keyFloor: number[] = [];
    const client = await owner.connect();
    try {
      for (let i = 0; i < REQUESTS + 100; i++) {
        // The statements the server sends to check each (decision 039).
        const s = await time(() => client.query('select * from session_viewer($1)', [token]));
        const k = await time(() => client.query('select * from api_key_viewer($1, now(), 60)', [hash]));
        if (i >= 100) {
          sessionFloor.push(s);
          keyFloor.push(k);
        }
      }
    } finally {
      client.release();
    }
    const [a, b, fa, fb] = [session, key, sessionFloor, keyFloor].map(summarise) as [
      ReturnType<typeof summarise>,
      ReturnType<typeof summarise>,
      ReturnType<typeof summarise>,
      ReturnType<typeof summarise>,
    ];
    const extra = b.p95 - a.p95;
    return {
      name: 'API keys: a key request against a session request',
      dataSize: `${USERS.toLocaleString('en-US')} accounts each with a live session and an API key; GET ${ROUTE} ${REQUESTS} times with each, alternately, after 100 warm-up. Target: a key request p95 ≤ 2 ms above a session request's: ${extra <= 2 ? 'met' : 'NOT met'} (${extra >= 0 ? '+' : ''}${fmt(extra)} ms)`,
      header: '| measure | p50 | p95 | p99 |',
      rows: [
        `| GET ${ROUTE} with the session cookie | ${fmt(a.p50)} | ${fmt(a.p95)} | ${fmt(a.p99)} |`,
        `| GET ${ROUTE} with an API key | ${fmt(b.p50)} | ${fmt(b.p95)} | ${fmt(b.p99)} |`,
        `| key − session | ${fmt(b.p50 - a.p50)} | ${fmt(extra)} | ${fmt(b.p99 - a.p99)} |`,
        `| raw SQL floor: the session check (session_viewer) | ${fmt(fa.p50)} | ${fmt(fa.p95)} | ${fmt(fa.p99)} |`,
        `| raw SQL floor: the key check, counting the use (api_key_viewer) | ${fmt(fb.p50)} | ${fmt(fb.p95)} | ${fmt(fb.p99)} |`,
        `| ratio key request / key floor | ${(b.p50 / fb.p50).toFixed(1)}× | ${(b.p95 / fb.p95).toFixed(1)}× | ${(b.p99 / fb.p99).toFixed(1)}× |`,
      ],
    };
  } finally {
    await owner.end();
    await app.close();
  }
}
