import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { decideSignIn, THROTTLE_WINDOW_MS } from '../domain/auth/auth-throttle.ts';
import {
  readAttemptHistory,
  reserveAttempt,
  settleAttempt,
} from '../server/modules/auth/auth-attempts.repository.ts';
import type { Database } from '../server/db/schema.ts';
import { appUrlFrom, createDb } from '../server/db/database.ts';
import { TEST_APP_PASSWORD, TEST_APP_ROLE } from '../server/test/test-constants.ts';
import { seededRandom } from '../server/test/fuzz-values.ts';
import {
  fuzzedRoutes,
  judgeAnswer,
  randomCase,
  systematicCases,
  type FuzzCase,
} from '../server/test/route-fuzzer.ts';
import { startBenchServer } from './bench-server.ts';
import type { BenchResult } from './session-check.bench.ts';
import { fmt, summarise, time } from './stats.ts';

const ORIGIN = 'http://localhost:3000';
const PASSWORD = 'bench password 123';
const SEEDED_ATTEMPTS = 100_000;
const CYCLES = 1_000;
const FUZZ_CASES_PER_ROUTE = 100;

const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

/**
 * Abuse, measured: sign-in throttling under a burst of parallel guesses and under a guessing attack from
 * many addresses (what got through, whether the owner still got in, how fast refusals are), the cost of counting an
 * attempt against its raw-SQL floor with a large attempt table, and the route fuzzer over HTTP.
 */
export async function benchHardening(ownerUrl: string): Promise<BenchResult> {
  const { app, base } = await startBenchServer(ownerUrl, { trustProxy: 1 });
  const owner = new pg.Pool({ connectionString: ownerUrl, max: 4 });
  const appDb = createDb(appUrlFrom(ownerUrl, TEST_APP_ROLE, TEST_APP_PASSWORD), 4);
  const rows: string[] = [];
  try {
    const signUp = (email: string, ip: string) =>
      fetch(`${base}/api/auth/sign-up/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-forwarded-for': ip },
        body: JSON.stringify({ email, password: PASSWORD, name: '' }),
      });
    const signIn = (email: string, password: string, ip: string, cookie = '') =>
      fetch(`${base}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-forwarded-for': ip, cookie },
        body: JSON.stringify({ email, password }),
      });

    // 1. A burst: 150 parallel wrong guesses from one address, the right password last.
    const admin = await signUp('owner@example.com', '10.1.0.1');
    const adminCookie = cookieOf(admin);
    await signUp('burst@example.com', '10.1.0.2');
    let burstStatuses: number[] = [];
    const burstMs = await time(async () => {
      burstStatuses = await Promise.all(
        Array.from({ length: 150 }, (_, i) =>
          signIn('burst@example.com', i === 149 ? PASSWORD : `guess ${i}`, '198.51.100.7').then(
            (r) => r.status,
          ),
        ),
      );
    });
    const checked = burstStatuses.filter((s) => s === 401 || s === 200).length;
    rows.push(
      `| burst: 150 parallel guesses, one address, right password last | ${checked} checked, ${burstStatuses.filter((s) => s === 429).length} refused (429), right password ${burstStatuses[149] === 200 ? 'ACCEPTED' : 'refused'} | ${fmt(burstMs)} ms for all |`,
    );

    // 2. Many addresses guessing one account while its owner signs in from their own browser.
    await signUp('victim@example.com', '10.1.0.3');
    const device = (await signIn('victim@example.com', PASSWORD, '192.0.2.10')).headers
      .getSetCookie()
      .find((c) => c.startsWith('callcrm.device='))
      ?.split(';')[0];
    const attack: number[] = [];
    const attackStatuses: number[] = [];
    for (let i = 0; i < 300; i++) {
      let status = 0;
      attack.push(
        await time(
          async () =>
            (status = (await signIn('victim@example.com', `guess ${i}`, `203.0.${i >> 8}.${i & 255}`))
              .status),
        ),
      );
      attackStatuses.push(status);
    }
    const a = summarise(attack);
    const ownerIn = await time(async () => {
      const r = await signIn('victim@example.com', PASSWORD, '192.0.2.99', device);
      if (r.status !== 200) throw new Error(`the owner was locked out: ${r.status}`);
    });
    const stranger = (await signIn('victim@example.com', PASSWORD, '192.0.2.100')).status;
    rows.push(
      `| attack: 300 guesses from 300 addresses | ${attackStatuses.filter((s) => s === 401).length} checked, ${attackStatuses.filter((s) => s === 429).length} refused; owner's known browser signed in (${fmt(ownerIn)} ms); right password from a new browser: ${stranger} | p50 ${fmt(a.p50)} / p95 ${fmt(a.p95)} ms per guess |`,
    );

    // 3. The cost of counting an attempt, with a large attempt table, against the same SQL sent raw.
    await owner.query(`
      insert into auth_attempts (kind, account, client, ip, outcome, attempted_at)
      select 'sign-in', 'seed-' || (g % 5000) || '@example.com', 'ip:10.9.' || (g % 250) || '.' || (g % 200),
        '10.9.' || (g % 250) || '.' || (g % 200), 'failed', now() - (g % 900) * interval '1 second'
      from generate_series(1, ${SEEDED_ATTEMPTS}) g;
      analyze auth_attempts;`);
    const key = (i: number) => ({
      kind: 'sign-in' as const,
      account: `cycle-${i % 50}@example.com`,
      client: `ip:10.8.0.${i % 200}`,
      ip: `10.8.0.${i % 200}`,
      knownDevice: false,
    });
    const counted: number[] = [];
    for (let i = 0; i < CYCLES; i++)
      counted.push(
        await time(async () => {
          const r = await reserveAttempt(appDb, key(i), THROTTLE_WINDOW_MS, decideSignIn, new Date());
          if (r.allowed) await settleAttempt(appDb, r.id, 'succeeded');
        }),
      );
    const raw = new Kysely<Database>({ dialect: new PostgresDialect({ pool: owner }) });
    const floor: number[] = [];
    for (let i = 0; i < CYCLES; i++) {
      const k = key(i + CYCLES);
      floor.push(
        await time(() =>
          raw.transaction().execute(async (trx) => {
            await sql`select pg_advisory_xact_lock(hashtextextended(${`auth:${k.kind}:${k.account}`}, 0))`.execute(
              trx,
            );
            await sql`select pg_advisory_xact_lock(hashtextextended(${`auth-ip:${k.kind}:${k.ip}`}, 0))`.execute(
              trx,
            );
            await readAttemptHistory(trx, k, new Date(Date.now() - THROTTLE_WINDOW_MS));
            const row = await trx
              .insertInto('auth_attempts')
              .values({
                kind: k.kind,
                account: k.account,
                client: k.client,
                ip: k.ip,
                known_device: false,
                attempted_at: new Date(),
              })
              .returning('id')
              .executeTakeFirstOrThrow();
            await trx
              .updateTable('auth_attempts')
              .set({ outcome: 'succeeded' })
              .where('id', '=', row.id)
              .execute();
          }),
        ),
      );
    }
    const c = summarise(counted);
    const f = summarise(floor);
    rows.push(
      `| counting one sign-in attempt (reserve + settle), ${SEEDED_ATTEMPTS.toLocaleString()} attempts stored | p50 ${fmt(c.p50)} / p95 ${fmt(c.p95)} ms; floor p50 ${fmt(f.p50)} / p95 ${fmt(f.p95)} ms | ratio p95 ${(c.p95 / f.p95).toFixed(1)}× |`,
    );

    // 4. The route fuzzer over HTTP.
    const user = await signUp('fuzz@example.com', '10.1.0.4');
    const userCookie = cookieOf(user);
    await fetch(
      `${base}/api/admin/users/${((await user.json()) as { user: { id: string } }).user.id}/approve`,
      {
        method: 'POST',
        headers: { cookie: adminCookie, origin: ORIGIN },
      },
    );
    const contact = (await (
      await fetch(`${base}/api/contacts`, {
        method: 'POST',
        headers: { cookie: userCookie, origin: ORIGIN, 'content-type': 'application/json' },
        body: JSON.stringify({
          firstName: 'Fay',
          lastName: 'Fuzz',
          email: 'fay@example.com',
          phone: '5550100123',
        }),
      })
    ).json()) as { contact: { id: string } };
    const target = {
      routes: app.routeTable,
      admin: { cookie: adminCookie },
      user: { cookie: userCookie },
      contactId: contact.contact.id,
    };
    const random = seededRandom(20261124);
    const cases: FuzzCase[] = [];
    for (const route of fuzzedRoutes(target.routes)) {
      cases.push(...systematicCases(target, route, random));
      for (let n = 0; n < FUZZ_CASES_PER_ROUTE; n++) cases.push(randomCase(target, route, random, n));
    }
    let failures = 0;
    let dropped = 0;
    const statuses = new Map<number, number>();
    const fuzzMs = await time(async () => {
      for (const request of cases) {
        try {
          const response = await fetch(`${base}${request.url}`, {
            method: request.method,
            headers: request.headers,
            ...(request.payload !== undefined && {
              body: typeof request.payload === 'string' ? request.payload : new Uint8Array(request.payload),
            }),
          });
          const body = await response.text();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (judgeAnswer(request.label, response.status, body)) failures += 1;
        } catch {
          dropped += 1;
        }
      }
    });
    const spread = [...statuses.entries()]
      .sort((x, y) => x[0] - y[0])
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ');
    rows.push(
      `| route fuzzer over HTTP: ${fuzzedRoutes(target.routes).length} routes, ${cases.length.toLocaleString()} requests | ${failures} server errors, ${dropped} dropped connections; answers ${spread} | ${(fuzzMs / 1000).toFixed(1)} s, ${Math.round(cases.length / (fuzzMs / 1000))} requests/s |`,
    );
    return {
      name: 'Abuse: sign-in throttling and the route fuzzer',
      dataSize: `accounts signed up per scenario; ${SEEDED_ATTEMPTS.toLocaleString()} stored attempts for the counting cost (${CYCLES} cycles each side)`,
      header: '| scenario | outcome | time |',
      rows,
    };
  } finally {
    await appDb.destroy();
    await owner.end();
    await app.close();
  }
}
