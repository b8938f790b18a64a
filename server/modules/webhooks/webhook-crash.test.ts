import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/fake-webhook-receiver.ts';
import { startServerProcess, type ServerProcess } from '../../test/server-process.ts';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.ts';
import { withDatabase } from '../../test/test-postgres.ts';
import { DELIVERIES_AT_ONCE } from './webhook-deliver.task.ts';

/**
 * The kill -9 drill of outgoing webhooks (decision 035): 10,000 webhook events (5,000 contacts created, then each changed)
 * while the server delivering them is killed 10 times mid-delivery and started again exactly as the README runs it.
 * Every event reaches the receiver at least once, none is lost, each contact's events arrive in order, and an event
 * received twice carries the same webhook-id both times; at most the group in flight at a kill (DELIVERIES_AT_ONCE) is sent again.
 */
const ROUNDS = 10;
const CONTACTS_PER_ROUND = 500;
const EVENTS = ROUNDS * CONTACTS_PER_ROUND * 2;

let db: TestDatabase;
let dir: string;
let receiver: WebhookReceiver;
let server: ServerProcess | null = null;
let env: Record<string, string>;

beforeAll(async () => {
  db = await createTestDatabase();
  dir = mkdtempSync(path.join(os.tmpdir(), 'callcrm-webhook-crash-'));
  receiver = await startWebhookReceiver();
  env = {
    DATABASE_URL: withDatabase(inject('pgAdminUrl'), db.name),
    DATA_DIR: dir,
    SESSION_SECRET: 'webhook-crash-session-secret-long-enough-1234',
    ENCRYPTION_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    PUBLIC_URL: '',
  };
}, 60_000);
afterAll(async () => {
  await server?.kill();
  await receiver.close();
  await db.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('webhook deliveries whose server is killed mid-delivery', () => {
  it('delivers every event at least once, in order per contact, a repeat with the same webhook-id', async () => {
    server = await startServerProcess(env);
    const signedUp = await fetch(`${server.base}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.base },
      body: JSON.stringify({ email: 'owner@example.com', password: 'correct horse battery', name: 'Olive' }),
    });
    const userId = ((await signedUp.json()) as { user: { id: string } }).user.id;
    const cookie = signedUp.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const registered = await fetch(`${server.base}/api/webhooks`, {
      method: 'POST',
      headers: { cookie, origin: server.base, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, events: ['contact.created', 'contact.updated'] }),
    });
    expect(registered.status).toBe(201);

    for (let round = 0; round < ROUNDS; round++) {
      // An import-sized batch, then a change to each of its contacts: 1,000 events, captured by the triggers.
      await db.admin.query(
        `insert into contacts (user_id, first_name, last_name, email)
         select $1, 'Drill', 'R' || $2::int, 'drill' || $2::int || '-' || g || '@buyer.example'
         from generate_series(1, ${CONTACTS_PER_ROUND}) g`,
        [userId, round],
      );
      await db.admin.query(`update contacts set company = 'Changed' where last_name = 'R' || $1::int`, [
        round,
      ]);
      // Killed once deliveries are under way (or after a while, if they are slow to start).
      const before = receiver.received.length;
      const until = Date.now() + 20_000;
      while (receiver.received.length < before + 300 && Date.now() < until)
        await new Promise((r) => setTimeout(r, 5));
      await server.kill();
      server = await startServerProcess(env);
    }

    const pending = async () =>
      (
        await db.admin.query<{ n: number }>(
          `select count(*)::int as n from webhook_deliveries where status <> 'delivered'`,
        )
      ).rows[0]!.n;
    const deadline = Date.now() + 120_000;
    while ((await pending()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await pending()).toBe(0);

    const recorded = await db.admin.query<{ id: string }>('select id from webhook_deliveries');
    expect(recorded.rows).toHaveLength(EVENTS);
    const ids = receiver.received.map((r) => String(r.headers['webhook-id']));
    expect(new Set(ids)).toEqual(new Set(recorded.rows.map((r) => r.id)));
    // A repeat is the same event under the same id: one id per (contact, type).
    const idsOf = new Map<string, Set<string>>();
    const firstSeen = new Map<string, number>();
    receiver.received.forEach((r, i) => {
      const key = `${String(r.json.data.id)} ${r.json.type}`;
      idsOf.set(key, (idsOf.get(key) ?? new Set()).add(String(r.headers['webhook-id'])));
      if (!firstSeen.has(key)) firstSeen.set(key, i);
    });
    expect(idsOf.size).toBe(EVENTS);
    expect([...idsOf.values()].every((set) => set.size === 1)).toBe(true);
    // Each contact's change arrives after its creation.
    const contacts = new Set(receiver.received.map((r) => String(r.json.data.id)));
    const outOfOrder = [...contacts].filter(
      (id) => firstSeen.get(`${id} contact.updated`)! < firstSeen.get(`${id} contact.created`)!,
    );
    expect(outOfOrder).toEqual([]);
    // Each group is committed once sent: a kill resends at most the group in flight.
    expect(receiver.received.length - EVENTS).toBeLessThanOrEqual(ROUNDS * DELIVERIES_AT_ONCE);
    console.log(
      `webhook drill: ${EVENTS} events, ${ROUNDS} kills, ${receiver.received.length} requests received ` +
        `(${receiver.received.length - EVENTS} repeats)`,
    );
  }, 400_000);
});
