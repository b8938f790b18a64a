import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Role } from '#domain/auth/roles.ts';
import { buildApp, type App, type AppConfig } from '../app.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';
import { TEST_ORIGIN, TEST_PUBLIC_URL } from './test-constants.ts';

export type TestClock = { now: () => Date; advance: (ms: number) => void; set: (d: Date) => void };

export function createTestClock(start = new Date('2026-11-21T09:00:00Z')): TestClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => (current += ms),
    set: (d) => (current = d.getTime()),
  };
}

export type TestContext = {
  app: App;
  db: TestDatabase;
  clock: TestClock;
  /** Where this app stores recordings (a temporary directory, removed on close; shared by a second instance). */
  filesDir: string;
  close: () => Promise<void>;
};

/** The real server on its own fresh database, driven through app.inject(). */
export async function createTestApp(
  options: {
    adminEmail?: string;
    systemSmtpUrl?: string;
    smtpTrustedCa?: string;
    importMaxBytes?: number;
    apiKeyRequestsPerMinute?: number;
    defaultCallerId?: string | null;
    /** Another provider (the Twilio adapter against a local fake of its API); the fast simulator otherwise. */
    telephony?: AppConfig['telephony'];
    trustProxy?: AppConfig['trustProxy'];
    closeGraceMs?: number;
    smtpAllowedHosts?: string[];
    webhookAllowedHosts?: string[];
    /** HubSpot's API address: a local fake (server/test/fake-hubspot.ts). */
    hubspotApiUrl?: string;
    /** A Salesforce connected app whose login host is a local fake (server/test/fake-salesforce.ts). */
    salesforce?: AppConfig['salesforce'];
    /** A built web app to serve (a directory holding index.html); none by default. */
    webDist?: string;
    /** Store recordings in this S3-compatible bucket (server/test/test-s3.ts) instead of the temporary directory. */
    filesS3?: AppConfig['filesS3'];
    /** A database of the test's own (a primary with a streaming replica); a fresh copy of the template otherwise. */
    database?: TestDatabase;
    replicaDatabaseUrl?: string;
    /** False: the instance queues background jobs but runs none (BACKGROUND_JOBS=off). */
    runJobs?: boolean;
    /**
     * How long some task waited for a CPU, µs (decision 062). None by default: the test files share the machine's
     * cores, so the real reading would make an import's pace depend on what else runs.
     */
    readCpuStalledMicros?: () => Promise<number | null>;
  } = {},
): Promise<TestContext> {
  const db = options.database ?? (await createTestDatabase());
  const clock = createTestClock();
  const filesDir = mkdtempSync(path.join(tmpdir(), 'callcrm-files-'));
  const app = await buildApp({
    databaseUrl: db.appUrl,
    replicaDatabaseUrl: options.replicaDatabaseUrl ?? null,
    poolSize: 5,
    sessionSecret: 'test-session-secret-that-is-long-enough-1234',
    publicUrl: TEST_PUBLIC_URL,
    trustedOrigins: [],
    trustProxy: options.trustProxy ?? false,
    adminEmail: options.adminEmail,
    systemSmtpUrl: options.systemSmtpUrl,
    systemMailFrom: 'CallCRM <no-reply@localhost>',
    encryptionKey: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
    smtpTrustedCa: options.smtpTrustedCa,
    smtpAllowedHosts: options.smtpAllowedHosts ?? null,
    webhookAllowedHosts: options.webhookAllowedHosts ?? null,
    ...(options.hubspotApiUrl && { hubspotApiUrl: options.hubspotApiUrl }),
    ...(options.salesforce && { salesforce: options.salesforce }),
    ...(options.importMaxBytes !== undefined && { importMaxBytes: options.importMaxBytes }),
    ...(options.apiKeyRequestsPerMinute !== undefined && {
      apiKeyRequestsPerMinute: options.apiKeyRequestsPerMinute,
    }),
    // The simulator at a hundredth of real time: a call rings at 10 ms and ends 330 ms after it starts.
    telephony: options.telephony ?? {
      provider: 'simulator',
      timeScale: 0.01,
      timeoutMs: 300,
      bulkSpacingMs: 50,
    },
    ...(options.defaultCallerId !== undefined && { defaultCallerId: options.defaultCallerId }),
    logLevel: process.env.TEST_LOG_LEVEL ?? 'silent',
    webDist: options.webDist ?? null,
    clock: clock.now,
    readCpuStalledMicros: options.readCpuStalledMicros ?? (() => Promise.resolve(null)),
    jobPollIntervalMs: 50,
    filesDir,
    ...(options.filesS3 && { filesS3: options.filesS3 }),
    ...(options.closeGraceMs !== undefined && { closeGraceMs: options.closeGraceMs }),
    ...(options.runJobs !== undefined && { runJobs: options.runJobs }),
  });
  return {
    app,
    db,
    clock,
    filesDir,
    close: async () => {
      await app.close();
      await db.drop();
      rmSync(filesDir, { recursive: true, force: true });
    },
  };
}

/** Another server instance on the same database, as a second machine behind a load balancer would be. */
export function buildSecondInstance(context: TestContext, overrides: Partial<AppConfig> = {}): Promise<App> {
  return buildApp({
    databaseUrl: context.db.appUrl,
    poolSize: 3,
    sessionSecret: 'test-session-secret-that-is-long-enough-1234',
    publicUrl: TEST_PUBLIC_URL,
    trustedOrigins: [],
    trustProxy: false,
    adminEmail: undefined,
    systemSmtpUrl: undefined,
    systemMailFrom: 'CallCRM <no-reply@localhost>',
    logLevel: 'silent',
    webDist: null,
    encryptionKey: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
    telephony: { provider: 'simulator', timeScale: 0.01, timeoutMs: 300, bulkSpacingMs: 50 },
    clock: context.clock.now,
    jobPollIntervalMs: 50,
    filesDir: context.filesDir,
    ...overrides,
  });
}

export const uniqueEmail = (prefix = 'person') => `${prefix}-${randomBytes(5).toString('hex')}@example.com`;
export const PASSWORD = 'correct horse battery';

export type Session = { cookie: string; userId: string; email: string };

function cookieFrom(setCookie: string | string[] | undefined): string {
  const list = [setCookie ?? []].flat();
  return list.map((c) => c.split(';')[0]).join('; ');
}

/** A different client address for each person the tests sign up, as in life (sign-ups are limited per address). */
const personAddress = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0]! % 250)}`;

export async function signUp(app: App, email = uniqueEmail(), password = PASSWORD): Promise<Session> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    remoteAddress: personAddress(),
    headers: { origin: TEST_ORIGIN },
    payload: { email, password, name: '' },
  });
  if (response.statusCode !== 200) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  const body = response.json<{ user: { id: string } }>();
  return { cookie: cookieFrom(response.headers['set-cookie']), userId: body.user.id, email };
}

export async function signIn(app: App, email: string, password = PASSWORD) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { origin: TEST_ORIGIN },
    payload: { email, password },
  });
  return { response, cookie: cookieFrom(response.headers['set-cookie']) };
}

/** An account with the given role, arranged directly in the database. */
export async function createAccount(
  ctx: TestContext,
  role: Role | 'deactivated',
  email = uniqueEmail(role),
): Promise<Session> {
  const session = await signUp(ctx.app, email);
  const dbRole = role === 'deactivated' ? 'user' : role;
  await ctx.db.admin.query('update user_profiles set role = $2, deactivated_at = $3 where id = $1', [
    session.userId,
    dbRole,
    role === 'deactivated' ? new Date() : null,
  ]);
  return session;
}

/** The first account of a fresh instance becomes admin; use this to have one before anything else. */
export async function createFirstAdmin(ctx: TestContext): Promise<Session> {
  const session = await signUp(ctx.app, uniqueEmail('admin'));
  const { rows } = await ctx.db.admin.query<{ role: string }>(
    'select role from user_profiles where id = $1',
    [session.userId],
  );
  if (rows[0]?.role !== 'admin') throw new Error('expected the first account to become admin');
  return session;
}

export function asCookie(session: Session | null): Record<string, string> {
  return session ? { cookie: session.cookie, origin: TEST_ORIGIN } : { origin: TEST_ORIGIN };
}

/**
 * Settings → Phone, "Contacts whose local time is unknown: call and text them". Tests that dial the fictional
 * (555) 010-xxxx numbers (no time zone, not valid) say so; the product's default refuses them.
 */
export async function allowUnknownLocalTime(app: App, session: Session): Promise<void> {
  const response = await app.inject({
    method: 'PUT',
    url: '/api/consent/settings',
    headers: asCookie(session),
    payload: { window: null, unknownLocalTime: 'allow' },
  });
  if (response.statusCode !== 200) throw new Error(`consent settings failed: ${response.statusCode}`);
}
