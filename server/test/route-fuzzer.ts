import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { RouteAccess } from '../plugins/access-control.ts';
import { TEST_ORIGIN } from './test-constants.ts';
import {
  fuzzObject,
  nastyValue,
  NASTY_STRINGS,
  pick,
  shapeOf,
  SYSTEMATIC_VALUES,
  toQueryString,
} from './fuzz-values.ts';

/**
 * The route fuzzer's requests (run by plugins/route-fuzzer.test.ts and `npm run bench hardening`): every
 * registered API route gets malformed parameters, query strings and bodies — bad bytes, huge and odd numbers,
 * wrong types, broken JSON, binary uploads — as the kind of account that may call it.
 */
export type FuzzCase = {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  label: string;
};

/** Answers that are deliberate, not crashes: a provider or mail server that refused (502), a missing capability. */
export const DELIBERATE_ERRORS = new Set([
  '502 MAIL_FAILED',
  '502 PROVIDER_ERROR',
  '503 NOT_CONFIGURED',
  '503 UNAVAILABLE',
]);

/** Streams never end, so a request cannot wait for them. */
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

type Session = { cookie: string } | null;
export type FuzzTarget = {
  routes: readonly RouteAccess[];
  admin: Session;
  user: Session;
  /** A real id of the user's, so handlers are reached beyond "not found". */
  contactId: string;
};

const asCookie = (session: Session): Record<string, string> =>
  session ? { cookie: session.cookie, origin: TEST_ORIGIN } : { origin: TEST_ORIGIN };

/** Routes to fuzz, sign-out last (it ends the session it is called with). */
/** The routes the matrix and the fuzzer probe: the API, and the unsubscribe page a campaign e-mail links to. */
export const isProbedRoute = (url: string) => url.startsWith('/api/') || url.startsWith('/unsubscribe/');

export const fuzzedRoutes = (routes: readonly RouteAccess[]) =>
  routes
    .filter((r) => isProbedRoute(r.url) && !STREAMING.has(`${r.method} ${r.url}`))
    .sort((a, b) => Number(a.url.endsWith('/sign-out')) - Number(b.url.endsWith('/sign-out')));

/** Lone surrogates have no UTF-8 form: they travel as U+FFFD, as a browser would send them. */
const encode = (text: string) => encodeURIComponent(Buffer.from(text, 'utf8').toString('utf8'));

function paramValue(target: FuzzTarget, random: () => number): string {
  const value = pick(random, [target.contactId, randomUUID(), 'not-an-id', ...NASTY_STRINGS.slice(0, 20)]);
  return encode(value.slice(0, 2000));
}

/** A seeded random malformed request to a route. */
export function randomCase(
  target: FuzzTarget,
  route: RouteAccess,
  random: () => number,
  n: number,
): FuzzCase {
  const session = route.access === 'admin' ? target.admin : route.access === 'public' ? null : target.user;
  const headers: Record<string, string> = { ...asCookie(session) };
  if (random() < 0.05) headers.cookie = `callcrm.session_token=${encode(pick(random, NASTY_STRINGS))}`;
  const path = route.url.replace(/:\w+/g, () => paramValue(target, random));
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
  return {
    method: route.method,
    url,
    headers,
    payload,
    label: `case ${n} (${kind}) ${route.method} ${url.slice(0, 160)}`,
  };
}

/** Each field of a route (parameter, query value, body field) set to `value`, every other field well-formed. */
export function systematicCases(target: FuzzTarget, route: RouteAccess, random: () => number): FuzzCase[] {
  const session = route.access === 'admin' ? target.admin : route.access === 'public' ? null : target.user;
  const schema = (route.schema ?? {}) as { querystring?: unknown; body?: unknown };
  const bodySchema =
    route.method === 'GET' || route.method === 'DELETE'
      ? undefined
      : (schema.body ?? (route.url.startsWith('/api/auth/') ? AUTH_BODY : undefined));
  const params = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const queryKeys = Object.keys(shapeOf(schema.querystring, random));
  const bodyKeys = Object.keys(shapeOf(bodySchema, random));
  const cases: FuzzCase[] = [];
  const build = (where: 'params' | 'query' | 'body', field: string, value: unknown): FuzzCase => {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    const path = route.url.replace(/:(\w+)/g, (_, name: string) =>
      name === field && where === 'params' ? encode(text.slice(0, 2000)) : target.contactId,
    );
    const query = fuzzObject(schema.querystring, random, 0, 0);
    if (where === 'query') query[field] = value;
    const body = bodySchema ? fuzzObject(bodySchema, random, 0, 0) : undefined;
    if (body && where === 'body') body[field] = value;
    const search = toQueryString(query);
    return {
      method: route.method,
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

/** Judges an answer: null when acceptable (below 500, or a deliberate 502/503), else what went wrong. */
export function judgeAnswer(label: string, status: number, body: string): string | null {
  if (status < 500) return null;
  let code = '';
  try {
    code = (JSON.parse(body) as { code?: string }).code ?? '';
  } catch {
    // not JSON: not a deliberate answer either
  }
  return DELIBERATE_ERRORS.has(`${status} ${code}`) ? null : `${label}: ${status} ${body.slice(0, 200)}`;
}
