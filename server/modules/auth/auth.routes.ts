import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RATE_LIMITED_MESSAGE } from '#domain/auth/sign-in-rate-limit.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { AUTH_BASE_PATH } from './auth.ts';
import { checkSignInAllowed, recordSignInAttempt } from './sign-in-attempts.repository.ts';

/** The better-auth endpoints the product uses; the rest of its surface is not exposed. */
const EXPOSED: { method: 'GET' | 'POST'; path: string }[] = [
  { method: 'POST', path: '/sign-up/email' },
  { method: 'POST', path: '/sign-out' },
  { method: 'GET', path: '/get-session' },
  { method: 'POST', path: '/request-password-reset' },
  { method: 'GET', path: '/reset-password/:token' },
  { method: 'POST', path: '/reset-password' },
  { method: 'POST', path: '/change-password' },
];

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  for (const route of EXPOSED) {
    app.route({
      method: route.method,
      url: `${AUTH_BASE_PATH}${route.path}`,
      config: { access: 'public' },
      handler: async (request, reply) => sendAuthResponse(reply, await callAuth(ctx, request)),
    });
  }

  // Sign-in goes through the rate limiter first (per IP and per account, stored in the database).
  app.post(`${AUTH_BASE_PATH}/sign-in/email`, { config: { access: 'public' } }, async (request, reply) => {
    const email = emailOf(request.body);
    const now = ctx.clock();
    if (email) {
      const decision = await checkSignInAllowed(ctx.db, { ip: request.ip, email, now });
      if (!decision.allowed) {
        throw new AppError('RATE_LIMITED', RATE_LIMITED_MESSAGE, {
          retryAfterSeconds: decision.retryAfterSeconds,
        });
      }
    }
    const response = await callAuth(ctx, request);
    // Recorded before answering, so the client's next attempt already counts this one.
    if (email && (response.status === 200 || response.status === 401)) {
      await recordSignInAttempt(ctx.db, { ip: request.ip, email, succeeded: response.status === 200, now });
    }
    return sendAuthResponse(reply, response);
  });
}

function emailOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || !('email' in body)) return null;
  const email = body.email;
  return typeof email === 'string' && email.length <= 254 ? email.trim().toLowerCase() : null;
}

/** Hands a Fastify request to better-auth's fetch handler. */
function callAuth(ctx: AppContext, request: FastifyRequest): Promise<Response> {
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
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

/** Copies better-auth's answer to the Fastify reply, cookies included. */
async function sendAuthResponse(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  void reply.status(response.status);
  response.headers.forEach((value, key) => {
    if (key !== 'set-cookie' && key !== 'content-length') void reply.header(key, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) void reply.header('set-cookie', cookies);
  const text = await response.text();
  return reply.send(text === '' ? undefined : text);
}
