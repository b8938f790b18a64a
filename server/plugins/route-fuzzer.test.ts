import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createFirstAdmin, createTestApp, type TestContext } from '../test/test-app.ts';
import { insertContact } from '../test/contact-factory.ts';
import { seededRandom } from '../test/fuzz-values.ts';
import {
  fuzzedRoutes,
  judgeAnswer,
  randomCase,
  systematicCases,
  type FuzzCase,
  type FuzzTarget,
} from '../test/route-fuzzer.ts';

/**
 * The route fuzzer in `npm test` (cases in test/route-fuzzer.ts): nothing may answer 5xx except the
 * deliberate ones, and nothing may drop the connection. Seeded: a failure names its seed and case.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const CASES_PER_ROUTE = Number(process.env.FUZZ_CASES ?? 24);

let ctx: TestContext;
let target: FuzzTarget;

beforeAll(async () => {
  ctx = await createTestApp();
  const admin = await createFirstAdmin(ctx);
  const user = await createAccount(ctx, 'user');
  const contactId = (await insertContact(ctx.app, user, { phone: '+15550100123' })).id;
  target = { routes: ctx.app.routeTable, admin, user, contactId };
});
afterAll(() => ctx.close());

/** Sends one case; a failure's description, or null when the answer is acceptable. */
async function judge(request: FuzzCase): Promise<string | null> {
  try {
    const response = await ctx.app.inject({
      method: request.method as 'POST',
      url: request.url,
      headers: request.headers,
      ...(request.payload !== undefined && { payload: request.payload }),
    });
    return judgeAnswer(request.label, response.statusCode, response.body);
  } catch (error) {
    return `${request.label}: the connection dropped (${String(error)})`;
  }
}

describe('route fuzzer', () => {
  it('answers each field of every route set to each bad value without a server error', async () => {
    const random = seededRandom(SEED);
    const failures: string[] = [];
    let requests = 0;
    for (const route of fuzzedRoutes(target.routes)) {
      for (const request of systematicCases(target, route, random)) {
        requests += 1;
        const failure = await judge(request);
        if (failure) failures.push(failure);
      }
    }
    expect(requests).toBeGreaterThan(500);
    expect(failures, `${requests} requests`).toEqual([]);
  }, 600_000);

  it('answers random malformed requests to every route without a server error', async () => {
    const random = seededRandom(SEED);
    const routes = fuzzedRoutes(target.routes);
    expect(routes.length).toBeGreaterThan(40);
    const failures: string[] = [];
    let requests = 0;
    for (const route of routes) {
      for (let n = 0; n < CASES_PER_ROUTE; n++) {
        requests += 1;
        const failure = await judge(randomCase(target, route, random, n));
        if (failure) failures.push(failure);
      }
    }
    expect(failures, `seed ${SEED}, ${requests} requests`).toEqual([]);
  }, 600_000);
});
