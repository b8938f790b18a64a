import path from 'node:path';
import { buildApp, type App } from '../server/app.ts';
import type { TelephonyConfig } from '../server/telephony/create-telephony.ts';
import { appUrlFrom } from '../server/db/database.ts';
import { TEST_APP_PASSWORD, TEST_APP_ROLE } from '../server/test/test-constants.ts';

/** The real server on the benchmark's database, listening on a free port, serving the built SPA when there is one. */
export async function startBenchServer(
  ownerUrl: string,
  options: {
    smtpTrustedCa?: string;
    trustProxy?: number;
    telephony?: TelephonyConfig;
    poolSize?: number;
    /** Where recordings are stored; data/bench-files by default. */
    filesDir?: string;
    apiKeyRequestsPerMinute?: number;
  } = {},
): Promise<{ app: App; base: string }> {
  const app = await buildApp({
    databaseUrl: appUrlFrom(ownerUrl, TEST_APP_ROLE, TEST_APP_PASSWORD),
    poolSize: options.poolSize ?? 10,
    // As a server started with DATABASE_PREPARED_STATEMENTS=off (decision 049), to compare.
    preparedStatements: process.env.DATABASE_PREPARED_STATEMENTS !== 'off',
    sessionSecret: 'bench-session-secret-long-enough-0123456789',
    publicUrl: 'http://localhost:3000',
    trustedOrigins: [],
    trustProxy: options.trustProxy ?? false,
    adminEmail: undefined,
    systemSmtpUrl: undefined,
    systemMailFrom: 'bench@localhost',
    encryptionKey: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
    logLevel: 'silent',
    webDist: path.resolve('dist/web'),
    smtpTrustedCa: options.smtpTrustedCa,
    filesDir: options.filesDir ?? path.resolve('data/bench-files'),
    ...(options.telephony && { telephony: options.telephony }),
    ...(options.apiKeyRequestsPerMinute && { apiKeyRequestsPerMinute: options.apiKeyRequestsPerMinute }),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return { app, base: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

/** The first account of a benchmark's database (it becomes the admin, so every approved route is open to it). */
export async function signUpBenchUser(
  base: string,
  email: string,
  /** A client address of its own (the server trusting one proxy), so many sign-ups are not throttled as one. */
  forwardedFor?: string,
): Promise<{ cookie: string; userId: string }> {
  const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: 'http://localhost:3000',
      ...(forwardedFor && { 'x-forwarded-for': forwardedFor }),
    },
    body: JSON.stringify({ email, password: 'bench password 123', name: '' }),
  });
  if (!signUp.ok) throw new Error(`bench sign-up failed: ${signUp.status}`);
  const cookie = signUp.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { cookie, userId: ((await signUp.json()) as { user: { id: string } }).user.id };
}

/** A JSON client of the bench server as one signed-in user; any answer of 300 or more throws with its body. */
export function benchApi(base: string, cookie: string) {
  const headers = { 'content-type': 'application/json', origin: 'http://localhost:3000', cookie };
  return async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${base}${path}`, {
      method,
      headers,
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
    // 204 No Content (END CALL, say) has no body to read.
    const text = await r.text();
    return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
  };
}

/**
 * Settings → Phone: call and text contacts whose local time is unknown. Benchmarks that dial the fictional 555
 * numbers (no time zone, not valid) say so, as the tests do; the product refuses them by default (decision 024).
 */
export async function allowUnknownLocalTime(base: string, cookie: string): Promise<void> {
  const response = await fetch(`${base}/api/consent/settings`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', origin: 'http://localhost:3000', cookie },
    body: JSON.stringify({ window: null, unknownLocalTime: 'allow' }),
  });
  if (!response.ok) throw new Error(`consent settings failed: ${response.status}`);
}
