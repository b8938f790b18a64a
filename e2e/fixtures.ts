import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect, type Page, type Browser } from '@playwright/test';
import { adminQuery, freePort, withDatabase } from '../server/test/test-postgres.ts';

export type Server = { baseUrl: string; databaseUrl: string };

/** The built product as a real process (node server/main.ts) on a fresh copy of the migrated database. */
async function startServer(
  simulatorTimeScale: string,
  serverEnv: Record<string, string>,
): Promise<Server & { stop: () => Promise<void>; errorLog: () => string[] }> {
  const adminUrl = process.env.E2E_PG_ADMIN_URL!;
  const name = `callcrm_e2e_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name} template ${process.env.E2E_PG_TEMPLATE!}`);
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'callcrm-e2e-'));
  const databaseUrl = withDatabase(adminUrl, name);
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${port}`,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      SESSION_SECRET: 'e2e-session-secret-long-enough-for-the-check',
      LOG_LEVEL: 'warn',
      SMTP_CA_FILE: process.env.E2E_SMTP_CERT_FILE ?? '',
      // Local fakes of outgoing webhooks (Slack) listen on loopback, which users' webhooks may not reach otherwise.
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      // By default the simulator runs ten times faster than real time: answered after 0.3 s, hung up by itself
      // after 3.3 s. A journey that does much during one call slows it down (test.use({ simulatorTimeScale })).
      SIMULATOR_TIME_SCALE: simulatorTimeScale,
      // Local fakes of outside services a journey starts (test.use({ serverEnv })): HUBSPOT_API_URL, SALESFORCE_….
      ...serverEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The server's warnings and errors (JSON lines), shown when a journey fails, so a CI failure can be read.
  const logged: string[] = [];
  let partial = '';
  child.stdout?.on('data', (c: Buffer) => {
    const lines = (partial + c.toString()).split('\n');
    partial = lines.pop() ?? '';
    logged.push(...lines.filter((l) => l.trim()));
    if (logged.length > 200) logged.splice(0, logged.length - 200);
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const baseUrl = `http://localhost:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    if (Date.now() > deadline) throw new Error(`server did not start: ${stderr}`);
    const ok = await fetch(`${baseUrl}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseUrl,
    databaseUrl,
    errorLog: () => [...logged],
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      await adminQuery(adminUrl, `drop database if exists ${name} with (force)`).catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type Fixtures = {
  /** How much faster than real time the simulator runs (SIMULATOR_TIME_SCALE); '0.1' by default. */
  simulatorTimeScale: string;
  /** More environment for the server: where a journey's local fake of an outside service listens. */
  serverEnv: Record<string, string>;
  server: Server;
  /** Console errors this test provokes on purpose (a 401 from a wrong password, say). */
  allowConsoleErrors: (pattern: RegExp) => void;
  page: Page;
};

export const test = base.extend<Fixtures & { consoleErrors: { allowed: RegExp[]; seen: string[] } }>({
  simulatorTimeScale: ['0.1', { option: true }],
  serverEnv: [{}, { option: true }],
  server: async ({ simulatorTimeScale, serverEnv }, use, testInfo) => {
    const server = await startServer(simulatorTimeScale, serverEnv);
    await use(server);
    if (testInfo.status !== testInfo.expectedStatus && server.errorLog().length > 0)
      await testInfo.attach('server log', { body: server.errorLog().join('\n'), contentType: 'text/plain' });
    await server.stop();
  },
  consoleErrors: async ({}, use) => {
    await use({ allowed: [], seen: [] });
  },
  allowConsoleErrors: async ({ consoleErrors }, use) => {
    await use((pattern) => consoleErrors.allowed.push(pattern));
  },
  page: async ({ browser, server, consoleErrors }, use) => {
    const page = await newWatchedPage(browser, server, consoleErrors);
    await use(page);
    await page.context().close();
    const unexpected = consoleErrors.seen.filter((m) => !consoleErrors.allowed.some((p) => p.test(m)));
    expect(unexpected, 'unexpected console errors').toEqual([]);
  },
});

/** A page in its own browser context (its own cookies), whose console errors are collected. */
export async function newWatchedPage(
  browser: Browser,
  server: Server,
  consoleErrors: { seen: string[] },
): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.baseUrl });
  const page = await context.newPage();
  // "Failed to load resource" names no request: the URL it came from does, so a failure says which one answered.
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const where = m.location().url;
    consoleErrors.seen.push(where ? `${m.text()} (${where})` : m.text());
  });
  page.on('pageerror', (e) => consoleErrors.seen.push(`pageerror: ${e.message}`));
  return page;
}

export { expect };

export const PASSWORD = 'correct horse battery';
export const uniqueEmail = (who: string) => `${who}-${randomBytes(4).toString('hex')}@example.com`;

/** Signs up through the Welcome card (the UI is what these journeys test). */
export async function signUpThroughUi(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Password').press('Enter');
}

/** Signs in through the Welcome card and, unless told the attempt is refused, waits until the app has opened. */
export async function signInThroughUi(
  page: Page,
  email: string,
  password = PASSWORD,
  expectRefusal = false,
): Promise<void> {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Password').press('Enter');
  if (!expectRefusal) await expect(page).not.toHaveURL(/\/auth$/);
}

/** Arranges accounts through the API (journeys that do not test sign-up itself). */
export async function signUpThroughApi(server: Server, email: string, password = PASSWORD): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.baseUrl },
    body: JSON.stringify({ email, password, name: '' }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status}`);
  return ((await response.json()) as { user: { id: string } }).user.id;
}

export async function setRole(
  server: Server,
  userId: string,
  role: 'user' | 'admin' | 'pending' | 'denied',
): Promise<void> {
  await adminQuery(server.databaseUrl, `update user_profiles set role = '${role}' where id = '${userId}'`);
}

/**
 * An approved user arranged through the API, signed in through the UI, with a cookie for API seeding. Journeys that
 * call or text the fictional (555) 010-xxxx numbers (no local time, not valid) pass `callsFictionalNumbers`: the rep
 * allows contacts of unknown local time (Settings → Phone), which the product refuses by default.
 */
/** The first account of the server, so its administrator, signed in through the sign-in screen. */
export async function signedInAdmin(page: Page, server: Server): Promise<{ userId: string; email: string }> {
  const email = uniqueEmail('admin');
  const userId = await signUpThroughApi(server, email);
  await signInThroughUi(page, email);
  return { userId, email };
}

export async function signedInRep(
  page: Page,
  server: Server,
  options: { callsFictionalNumbers?: boolean } = {},
): Promise<{ userId: string; cookie: string; email: string }> {
  await signUpThroughApi(server, uniqueEmail('admin'));
  const email = uniqueEmail('rep');
  const userId = await signUpThroughApi(server, email);
  await setRole(server, userId, 'user');
  await signInThroughUi(page, email);
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  if (options.callsFictionalNumbers) {
    const response = await fetch(`${server.baseUrl}/api/consent/settings`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie },
      body: JSON.stringify({ window: null, unknownLocalTime: 'allow' }),
    });
    if (!response.ok) throw new Error(`consent settings failed: ${response.status}`);
  }
  return { userId, cookie, email };
}

export async function createContactThroughApi(
  server: Server,
  cookie: string,
  contact: Record<string, unknown>,
): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/contacts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie },
    body: JSON.stringify(contact),
  });
  if (response.status !== 201)
    throw new Error(`contact create failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { contact: { id: string } }).contact.id;
}

export async function seedContacts(
  server: Server,
  userId: string,
  count: number,
  prefix: string,
  options: { withPhones?: boolean } = {},
): Promise<void> {
  const phone = options.withPhones ? `'555' || lpad(g::text, 7, '0')` : 'null';
  await adminQuery(
    server.databaseUrl,
    `insert into contacts (user_id, first_name, last_name, email, phone) select '${userId}', '${prefix}' || lpad(g::text, 4, '0'), 'Seeded', 's' || g || '@example.com', ${phone} from generate_series(1, ${count}) g`,
  );
}

/**
 * The app runs on the real clock here, so each journey picks time zones by what time it is in them now: one where
 * it is the middle of the night (outside any calling hours) and one where it is the middle of the day.
 */
export function zoneWhereHourIs(hours: number[]): { zone: string; place: string } {
  const now = new Date();
  for (const zone of Intl.supportedValuesOf('timeZone')) {
    if (!zone.startsWith('America/') && !zone.startsWith('Europe/') && !zone.startsWith('Asia/')) continue;
    const hour = Number(
      new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', hourCycle: 'h23' }).format(now),
    );
    // A whole-hour zone (its minute is the UTC minute).
    const minute = Number(
      new Intl.DateTimeFormat('en-US', { timeZone: zone, minute: 'numeric' }).format(now),
    );
    // Late in the hour, only an hour whose next one is also in the set (the test may run across it).
    const lasts = minute < 50 || hours.includes(hour + 1);
    if (hours.includes(hour) && lasts && minute === now.getUTCMinutes())
      return { zone, place: zone.split('/').at(-1)!.replaceAll('_', ' ') };
  }
  throw new Error(`No zone where the hour is one of ${hours.join(', ')}`);
}
