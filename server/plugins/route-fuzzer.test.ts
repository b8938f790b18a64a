import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  asCookie,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type Session,
  type TestContext,
} from '../test/test-app.ts';
import { TEST_ORIGIN } from '../test/test-constants.ts';
import { insertContact } from '../test/contact-factory.ts';
import {
  fuzzObject,
  nastyValue,
  NASTY_STRINGS,
  pick,
  seededRandom,
  shapeOf,
  SYSTEMATIC_VALUES,
  toQueryString,
} from '../test/fuzz-values.ts';
import type { RouteAccess } from './access-control.ts';

/**
 * The route fuzzer (issue 10): every registered API route gets malformed parameters, query strings and bodies —
 * bad bytes, huge and odd numbers, wrong types, broken JSON, binary uploads — as the kind of account that may call
 * it. Nothing may answer 5xx except the deliberate ones (a provider or mail server that refused: 502; a capability
 * this instance lacks: 503), and nothing may drop the connection. Seeded: a failure names its seed and case.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const CASES_PER_ROUTE = Number(process.env.FUZZ_CASES ?? 24);
const DELIBERATE = new Set(['502 MAIL_FAILED', '502 PROVIDER_ERROR', '503 NOT_CONFIGURED']);
/** Streams never end, so inject cannot wait for them. */
const STREAMING = new Set(['GET /api/events']);

/** The sign-in service's routes declare no schema; these are the fields it reads. */
const AUTH_BODY = z.object({
  email: z.email(),
  password: z.string(),
  name: z.string(),
  currentPassword: z.string(),
  newPassword: z.string(),
  revokeOtherSessions: z.boolean(),
  token: z.string(),
  redirectTo: z.string(),
});

let ctx: TestContext;
let admin: Session;
let user: Session;
let contactId: string;

beforeAll(async () => {
  ctx = await createTestApp();
  admin = await createFirstAdmin(ctx);
  user = await createAccount(ctx, 'user');
  contactId = (await insertContact(ctx.app, user, { phone: '+15550100123' })).id;
});
afterAll(() => ctx.close());

/** Lone surrogates have no UTF-8 form: they travel as U+FFFD, as a browser would send them. */
const encode = (text: string) => encodeURIComponent(Buffer.from(text, 'utf8').toString('utf8'));

function paramValue(random: () => number): string {
  const value = pick(random, [contactId, randomUUID(), 'not-an-id', ...NASTY_STRINGS.slice(0, 20)]);
  return encode(value.slice(0, 2000));
}

type Case = {
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  label: string;
};

function buildCase(route: RouteAccess, random: () => number, n: number): Case {
  const session = route.access === 'admin' ? admin : route.access === 'public' ? null : user;
  const headers: Record<string, string> = { ...asCookie(session) };
  if (random() < 0.05) headers.cookie = `callcrm.session_token=${encode(pick(random, NASTY_STRINGS))}`;
  const path = route.url.replace(/:\w+/g, () => paramValue(random));
  const schema = (route.schema ?? {}) as { querystring?: unknown; body?: unknown };
  const query =
    schema.querystring || random() < 0.15
      ? toQueryString(fuzzObject(schema.querystring ?? AUTH_BODY, random))
      : '';
  const url = query ? `${path}?${query}` : path;
  let payload: string | Buffer | undefined;
  let kind = 'none';
  if (route.method !== 'GET' && route.method !== 'DELETE') {
    const shape = random();
    const bodySchema = schema.body ?? (route.url.startsWith('/api/auth/') ? AUTH_BODY : undefined);
    if (route.url.startsWith('/api/contacts/imports') && shape < 0.5) {
      kind = 'binary';
      headers['content-type'] = 'application/octet-stream';
      payload =
        random() < 0.5 ? randomBytes(1 + Math.floor(random() * 50_000)) : Buffer.from('a,b\n\u0000,\u0001\n');
    } else if (shape < 0.7) {
      kind = 'json object';
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(fuzzObject(bodySchema ?? AUTH_BODY, random));
    } else if (shape < 0.8) {
      kind = 'json value';
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(nastyValue(random)) ?? 'null';
    } else if (shape < 0.9) {
      kind = 'broken json';
      headers['content-type'] = 'application/json';
      payload = pick(random, [
        '{"email": ',
        '{"a":"\\u0000"}',
        '[[[[',
        '{"a":1}}',
        '\u0000',
        '{"__proto__":{"x":1}}',
      ]);
    } else {
      kind = 'other type';
      headers['content-type'] = pick(random, [
        'application/x-www-form-urlencoded',
        'text/plain',
        'multipart/form-data; boundary=x',
        'application/json; charset=utf-16',
      ]);
      payload = `email=${encode(pick(random, NASTY_STRINGS))}&x=%00`;
    }
  }
  return { url, headers, payload, label: `case ${n} (${kind}) ${route.method} ${url.slice(0, 160)}` };
}

/** Sends one case; a failure's description, or null when the answer is acceptable. */
async function judge(method: string, request: Case): Promise<string | null> {
  try {
    const response = await ctx.app.inject({
      method: method as 'POST',
      url: request.url,
      headers: { origin: TEST_ORIGIN, ...request.headers },
      ...(request.payload !== undefined && { payload: request.payload }),
    });
    if (response.statusCode < 500) return null;
    let code = '';
    try {
      code = response.json<{ code?: string }>().code ?? '';
    } catch {
      // not JSON: not a deliberate answer either
    }
    if (DELIBERATE.has(`${response.statusCode} ${code}`)) return null;
    return `${request.label}: ${response.statusCode} ${response.body.slice(0, 200)}`;
  } catch (error) {
    return `${request.label}: the connection dropped (${String(error)})`;
  }
}

/** Routes to fuzz, sign-out last (it ends the session it is called with). */
const fuzzedRoutes = () =>
  ctx.app.routeTable
    .filter((r) => r.url.startsWith('/api/') && !STREAMING.has(`${r.method} ${r.url}`))
    .sort((a, b) => Number(a.url.endsWith('/sign-out')) - Number(b.url.endsWith('/sign-out')));

/** Each field of a route (parameter, query value, body field) set to `value`, every other field well-formed. */
function systematicCases(route: RouteAccess, random: () => number): Case[] {
  const session = route.access === 'admin' ? admin : route.access === 'public' ? null : user;
  const schema = (route.schema ?? {}) as { querystring?: unknown; body?: unknown };
  const bodySchema =
    route.method === 'GET' || route.method === 'DELETE'
      ? undefined
      : (schema.body ?? (route.url.startsWith('/api/auth/') ? AUTH_BODY : undefined));
  const params = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const queryKeys = Object.keys(shapeOf(schema.querystring, random));
  const bodyKeys = Object.keys(shapeOf(bodySchema, random));
  const cases: Case[] = [];
  const build = (where: 'params' | 'query' | 'body', field: string, value: unknown): Case => {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    const path = route.url.replace(/:(\w+)/g, (_, name: string) =>
      name === field && where === 'params' ? encode(text.slice(0, 2000)) : contactId,
    );
    const query = fuzzObject(schema.querystring, random, 0, 0);
    if (where === 'query') query[field] = value;
    const body = bodySchema ? fuzzObject(bodySchema, random, 0, 0) : undefined;
    if (body && where === 'body') body[field] = value;
    const search = toQueryString(query);
    return {
      url: search ? `${path}?${search}` : path,
      headers: { ...asCookie(session), ...(body && { 'content-type': 'application/json' }) },
      ...(body && { payload: JSON.stringify(body) }),
      label: `${where}.${field} = ${JSON.stringify(value)?.slice(0, 40)}: ${route.method} ${route.url}`,
    };
  };
  for (const value of SYSTEMATIC_VALUES) {
    for (const field of params) cases.push(build('params', field, value));
    for (const field of queryKeys) cases.push(build('query', field, value));
    for (const field of bodyKeys) cases.push(build('body', field, value));
  }
  return cases;
}

describe('route fuzzer', () => {
  it('answers each field of every route set to each bad value without a server error', async () => {
    const random = seededRandom(SEED);
    const failures: string[] = [];
    let requests = 0;
    for (const route of fuzzedRoutes()) {
      for (const request of systematicCases(route, random)) {
        requests += 1;
        const failure = await judge(route.method, request);
        if (failure) failures.push(failure);
      }
    }
    expect(requests).toBeGreaterThan(500);
    expect(failures, `${requests} requests`).toEqual([]);
  }, 600_000);

  it('answers random malformed requests to every route without a server error', async () => {
    const random = seededRandom(SEED);
    const routes = fuzzedRoutes();
    expect(routes.length).toBeGreaterThan(40);
    const failures: string[] = [];
    let requests = 0;
    for (const route of routes) {
      for (let n = 0; n < CASES_PER_ROUTE; n++) {
        requests += 1;
        const failure = await judge(route.method, buildCase(route, random, n));
        if (failure) failures.push(failure);
      }
    }
    expect(failures, `seed ${SEED}, ${requests} requests`).toEqual([]);
  }, 600_000);
});
