import pg from 'pg';
import { startBenchServer } from './bench-server.ts';
import { fmt, summarise, time } from './stats.ts';

export type BenchResult = { name: string; dataSize: string; header: string; rows: string[] };

const USERS = 10_000;
const REQUESTS = 2_000;

/**
 * Every authenticated request resolves its session and the account's profile (role, deactivation). This measures
 * GET /api/me end to end over HTTP against the physical floor: the statement the server sends (session_viewer,
 * decision 039) sent straight to PostgreSQL; and, for scale, the two lookups it replaced.
 */
export async function benchSessionCheck(ownerUrl: string): Promise<BenchResult> {
  const { app, base } = await startBenchServer(ownerUrl);
  const owner = new pg.Pool({ connectionString: ownerUrl, max: 4 });
  try {
    // Volume: many accounts and live sessions, seeded set-based.
    await owner.query(`
      insert into auth_users (id, email) select gen_random_uuid(), 'seed-' || g || '@example.com' from generate_series(1, ${USERS}) g;
      insert into user_profiles (id, email, role) select id, email, 'user' from auth_users where email like 'seed-%';
      insert into auth_sessions (id, token, user_id, expires_at)
        select gen_random_uuid(), md5(id::text), id, now() + interval '7 days' from auth_users where email like 'seed-%';
      analyze;`);
    const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
      body: JSON.stringify({ email: 'bench@example.com', password: 'bench password 123', name: '' }),
    });
    const cookie = signUp.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const { token, user_id } = (
      await owner.query<{ token: string; user_id: string }>(
        `select token, user_id from auth_sessions s join auth_users u on u.id = s.user_id where u.email = 'bench@example.com'`,
      )
    ).rows[0]!;

    const api: number[] = [];
    for (let i = 0; i < REQUESTS + 100; i++) {
      const ms = await time(async () => {
        const r = await fetch(`${base}/api/me`, { headers: { cookie } });
        if (r.status !== 200) throw new Error(`status ${r.status}`);
        await r.text();
      });
      if (i >= 100) api.push(ms);
    }

    const floor: number[] = [];
    const twoLookups: number[] = [];
    const client = await owner.connect();
    try {
      for (let i = 0; i < REQUESTS + 100; i++) {
        const ms = await time(() => client.query('select * from session_viewer($1)', [token]));
        if (i >= 100) floor.push(ms);
      }
      for (let i = 0; i < REQUESTS + 100; i++) {
        const ms = await time(async () => {
          await client.query(
            'select s.id, s.user_id, s.expires_at, u.email, u.name from auth_sessions s join auth_users u on u.id = s.user_id where s.token = $1',
            [token],
          );
          await client.query(
            'select id, email, first_name, last_name, role, deactivated_at, created_at from user_profiles where id = $1',
            [user_id],
          );
        });
        if (i >= 100) twoLookups.push(ms);
      }
    } finally {
      client.release();
    }
    const a = summarise(api);
    const f = summarise(floor);
    const t = summarise(twoLookups);
    return {
      name: 'Session check: GET /api/me',
      dataSize: `${USERS.toLocaleString()} accounts with live sessions; ${REQUESTS} sequential requests after 100 warm-up`,
      header: '| measure | p50 | p95 | p99 |',
      rows: [
        `| GET /api/me over HTTP | ${fmt(a.p50)} | ${fmt(a.p95)} | ${fmt(a.p99)} |`,
        `| raw SQL floor: the session check's one statement (session_viewer) | ${fmt(f.p50)} | ${fmt(f.p95)} | ${fmt(f.p99)} |`,
        `| for scale: the session and profile lookups as two statements | ${fmt(t.p50)} | ${fmt(t.p95)} | ${fmt(t.p99)} |`,
        `| ratio API / floor | ${(a.p50 / f.p50).toFixed(1)}× | ${(a.p95 / f.p95).toFixed(1)}× | ${(a.p99 / f.p99).toFixed(1)}× |`,
      ],
    };
  } finally {
    await owner.end();
    await app.close();
  }
}
