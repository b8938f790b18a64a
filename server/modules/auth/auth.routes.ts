import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { fromNodeHeaders } from 'better-auth/node';
import type { z } from 'zod';
import {
  decidePasswordChange,
  decidePasswordResetMail,
  decideSignIn,
  decideSignUp,
  HOUR_MS,
  THROTTLE_MESSAGES,
  THROTTLE_WINDOW_MS,
  type AttemptHistory,
  type ThrottleDecision,
} from '#domain/auth/auth-throttle.ts';
import { AUTH_REQUEST_BODIES } from '#domain/auth/credentials.schema.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { AUTH_BASE_PATH } from './auth.ts';
import { readDeviceId, newDeviceId, deviceCookie, withRequestScheme } from './auth-cookies.ts';
import {
  isKnownDevice,
  rememberDevice,
  reserveAttempt,
  settleAttempt,
  type AttemptKey,
  type AttemptKind,
} from './auth-attempts.repository.ts';

type Outcome = 'failed' | 'succeeded' | 'void';

/**
 * A throttled step of the sign-in service: who it is counted against, the rule, and how its answer settles it.
 * Steps without `settle` count every attempt (sign-up, reset mail); the others count failures.
 */
type Throttle = {
  kind: AttemptKind;
  windowMs: number;
  decide: (history: AttemptHistory, now: number) => ThrottleDecision;
  key: (request: FastifyRequest, ctx: AppContext) => Promise<Omit<AttemptKey, 'kind'> | null>;
  settle?: (response: Response, body: unknown) => Outcome;
};

type Exposed = {
  method: 'GET' | 'POST';
  path: string;
  body?: z.ZodType;
  throttle?: Throttle;
  /** Adjusts the request body before the service sees it. */
  prepare?: (body: Record<string, unknown>) => Record<string, unknown>;
};

const emailOf = (request: FastifyRequest) => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : '';
};

const ipClient = (request: FastifyRequest) => ({
  client: `ip:${request.ip}`,
  ip: request.ip,
  knownDevice: false,
});

/** The sign-in service's answers that mean "wrong password" (a guess that failed), by status and code. */
const wrongPassword = (response: Response, body: unknown, code: string) =>
  (response.status === 401 || response.status === 400) && (body as { code?: string } | null)?.code === code;

/** The better-auth endpoints the product uses; the rest of its surface is not exposed. */
const EXPOSED: Exposed[] = [
  {
    method: 'POST',
    path: '/sign-in/email',
    body: AUTH_REQUEST_BODIES.signIn,
    throttle: {
      kind: 'sign-in',
      windowMs: THROTTLE_WINDOW_MS,
      decide: decideSignIn,
      key: async (request, ctx) => {
        const account = emailOf(request);
        const device = readDeviceId(request);
        if (device && (await isKnownDevice(ctx.db, account, device)))
          return { account, client: `device:${device}`, ip: request.ip, knownDevice: true };
        return { account, ...ipClient(request) };
      },
      settle: (response) =>
        response.status === 200 ? 'succeeded' : response.status === 401 ? 'failed' : 'void',
    },
  },
  {
    method: 'POST',
    path: '/sign-up/email',
    body: AUTH_REQUEST_BODIES.signUp,
    throttle: {
      kind: 'sign-up',
      windowMs: HOUR_MS,
      decide: decideSignUp,
      key: async (request) => ({ account: emailOf(request), ...ipClient(request) }),
    },
  },
  { method: 'POST', path: '/sign-out' },
  { method: 'GET', path: '/get-session' },
  {
    method: 'POST',
    path: '/request-password-reset',
    body: AUTH_REQUEST_BODIES.requestPasswordReset,
    throttle: {
      kind: 'password-reset',
      windowMs: HOUR_MS,
      decide: decidePasswordResetMail,
      key: async (request) => ({ account: emailOf(request), ...ipClient(request) }),
    },
  },
  { method: 'GET', path: '/reset-password/:token' },
  { method: 'POST', path: '/reset-password', body: AUTH_REQUEST_BODIES.resetPassword },
  {
    method: 'POST',
    path: '/change-password',
    body: AUTH_REQUEST_BODIES.changePassword,
    // Other sessions are signed out unless the caller explicitly keeps them.
    prepare: (body) => ({ ...body, revokeOtherSessions: body.revokeOtherSessions ?? true }),
    throttle: {
      kind: 'change-password',
      windowMs: THROTTLE_WINDOW_MS,
      decide: decidePasswordChange,
      key: async (request, ctx) => {
        const session = await ctx.auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
        // Signed out: nothing to guess; the service answers 401 itself.
        return session
          ? { account: session.user.id, client: 'user', ip: request.ip, knownDevice: false }
          : null;
      },
      settle: (response, body) =>
        response.status === 200
          ? 'succeeded'
          : wrongPassword(response, body, 'INVALID_PASSWORD')
            ? 'failed'
            : 'void',
    },
  },
];

/**
 * The sign-in service (better-auth) behind our own routes: each request is bounded by a schema, throttled where a
 * person could be guessed at or flooded (domain/auth/auth-throttle.ts, counted in the database so it holds across
 * instances and under parallel requests), and its answer passed on without the session token in the body (the
 * browser has it as an httpOnly cookie, which is the only place it belongs), with cookies marked Secure whenever
 * the request really came over https.
 */
export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  for (const route of EXPOSED) {
    typed.route({
      method: route.method,
      url: `${AUTH_BASE_PATH}${route.path}`,
      config: { access: 'public' },
      ...(route.body && { schema: { body: route.body } }),
      handler: async (request, reply) => {
        if (route.prepare) request.body = route.prepare((request.body ?? {}) as Record<string, unknown>);
        const throttle = route.throttle;
        const key = throttle ? await throttle.key(request, ctx) : null;
        if (!throttle || !key) return sendAuthResponse(request, reply, await callAuth(ctx, request));
        const reserved = await reserveAttempt(
          ctx.db,
          { kind: throttle.kind, ...key },
          throttle.windowMs,
          throttle.decide,
          ctx.clock(),
        );
        if (!reserved.allowed)
          throw new AppError('RATE_LIMITED', THROTTLE_MESSAGES[throttle.kind](reserved.retryAfterSeconds), {
            retryAfterSeconds: reserved.retryAfterSeconds,
          });
        let outcome: Outcome = 'void';
        try {
          const response = await callAuth(ctx, request);
          const text = await response.text();
          const body = parseJson(text);
          outcome = throttle.settle ? throttle.settle(response, body) : 'failed';
          if (throttle.kind === 'sign-in' && outcome === 'succeeded')
            await rememberThisDevice(request, reply, key.account);
          return sendAuthResponse(request, reply, response, text);
        } finally {
          // Settled before the answer leaves, so the client's next attempt already counts this one.
          if (throttle.settle) await settleAttempt(ctx.db, reserved.id, outcome);
        }
      },
    });
  }

  async function rememberThisDevice(request: FastifyRequest, reply: FastifyReply, account: string) {
    const existing = readDeviceId(request);
    const device = existing ?? newDeviceId();
    await rememberDevice(ctx.db, account, device, ctx.clock());
    if (!existing) void reply.header('set-cookie', deviceCookie(device, request.protocol === 'https'));
  }
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
};

/**
 * The path of the route Fastify matched, with its parameters filled in: better-auth routes on this, never on the raw
 * URL, whose percent-encoding (`/%61pi/...`) Fastify has already decoded to find the route.
 */
function matchedPath(request: FastifyRequest): string {
  const params = (request.params ?? {}) as Record<string, string>;
  const path = (request.routeOptions.url ?? '/').replace(/:(\w+)/g, (_, name: string) =>
    encodeURIComponent(params[name] ?? ''),
  );
  const query = request.url.indexOf('?');
  return query === -1 ? path : path + request.url.slice(query);
}

/** Hands a Fastify request to better-auth's fetch handler. */
function callAuth(ctx: AppContext, request: FastifyRequest): Promise<Response> {
  const url = new URL(matchedPath(request), `${request.protocol}://${request.host}`);
  const headers = new Headers();
  for (const [key, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers.set(key, Array.isArray(value) ? value.join(', ') : value);
  }
  // better-auth reads the client address from this header; Fastify has already resolved it (trustProxy aware).
  headers.set('x-forwarded-for', request.ip);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== undefined;
  return ctx.auth.handler(
    new Request(url, {
      method: request.method,
      headers,
      body: hasBody ? JSON.stringify(request.body) : undefined,
    }),
  );
}

/**
 * Copies better-auth's answer to the Fastify reply: status, headers, cookies (Secure when the request came over
 * https), and the body without any session token.
 */
async function sendAuthResponse(
  request: FastifyRequest,
  reply: FastifyReply,
  response: Response,
  text?: string,
): Promise<FastifyReply> {
  void reply.status(response.status);
  response.headers.forEach((value, key) => {
    if (key !== 'set-cookie' && key !== 'content-length') void reply.header(key, value);
  });
  const cookies = withRequestScheme(response.headers.getSetCookie(), request.protocol === 'https');
  if (cookies.length > 0) void reply.header('set-cookie', cookies);
  const body = text ?? (await response.text());
  return reply.send(body === '' ? undefined : withoutSessionToken(body));
}

/**
 * The JSON answer without any session token: sign-in, sign-up and change-password return it as `token`, and
 * get-session as `session.token`.
 */
function withoutSessionToken(text: string): string {
  const parsed = parseJson(text);
  if (!isRecord(parsed)) return text;
  const { token, session, ...rest } = parsed;
  if (token === undefined && !(isRecord(session) && 'token' in session)) return text;
  if (isRecord(session)) {
    const { token: _sessionToken, ...sessionRest } = session;
    return JSON.stringify({ ...rest, session: sessionRest });
  }
  return JSON.stringify(session === undefined ? rest : { ...rest, session });
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
