import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/test-database.ts';
import { withDatabase } from '../test/test-postgres.ts';
import { seedQueueHistory } from '../test/calls-test-kit.ts';
import { startServerProcess, type ServerProcess } from '../test/server-process.ts';

/**
 * Several instances on one database, started exactly as the README says (each its own DATA_DIR, the first one's
 * database, the same SESSION_SECRET and ENCRYPTION_KEY), then killed with -9 and restarted: every instance keeps
 * answering, END CALL works from any of them, and what a killed instance left half-done is closed with true counts.
 */
let db: TestDatabase;
let ownerUrl: string;
const dirs: string[] = [];
const servers: ServerProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  ownerUrl = withDatabase(inject('pgAdminUrl'), db.name);
});
afterAll(async () => {
  for (const server of servers) await server.kill();
  await db.drop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess({
    DATABASE_URL: ownerUrl,
    SIMULATOR_TIME_SCALE: '0.5',
    SESSION_SECRET: '',
    ENCRYPTION_KEY: '',
    PUBLIC_URL: '',
    ...env,
  });
  servers.push(server);
  return server;
}
const dataDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'callcrm-instance-'));
  dirs.push(dir);
  return dir;
};

let cookie = '';
const request = (server: ServerProcess, method: string, url: string, body?: object) =>
  fetch(`${server.base}${url}`, {
    method,
    headers: {
      cookie,
      origin: server.base,
      ...(body && { 'content-type': 'application/json' }),
    },
    body: body ? JSON.stringify(body) : null,
  });
const callStatus = async (server: ServerProcess, id: string) =>
  ((await (await request(server, 'GET', `/api/calls/${id}`)).json()) as { call: { status: string } }).call
    .status;
const waitFor = async (check: () => Promise<boolean>, ms = 15_000) => {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
};
let requestNo = 0;
const placeCall = async (server: ServerProcess, phone: string) => {
  const contact = (await (
    await request(server, 'POST', '/api/contacts', {
      firstName: 'Ann',
      lastName: `Able ${phone}`,
      email: `ann-${phone.replace(/\D/g, '')}@example.com`,
      phone,
    })
  ).json()) as { contact: { id: string } };
  const placed = await request(server, 'POST', '/api/calls', {
    contactId: contact.contact.id,
    requestId: `req${String(requestNo++).padStart(5, '0')}`,
  });
  expect(placed.status).toBe(201);
  return ((await placed.json()) as { call: { id: string } }).call.id;
};

describe('several instances on one database', () => {
  let one: ServerProcess;
  let two: ServerProcess;
  let shared: Record<string, string>;

  // The first instance as `npm start` runs it (its secrets generated into its DATA_DIR); the second with the
  // first one's database and secrets, each in its own DATA_DIR.
  beforeAll(async () => {
    const firstDir = dataDir();
    one = await start({ DATA_DIR: firstDir });
    const secrets = JSON.parse(readFileSync(path.join(firstDir, 'secrets.json'), 'utf8')) as {
      sessionSecret: string;
      encryptionKey: string;
    };
    shared = { SESSION_SECRET: secrets.sessionSecret, ENCRYPTION_KEY: secrets.encryptionKey };
    two = await start({ DATA_DIR: dataDir(), ...shared });
    const signedUp = await fetch(`${one.base}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: one.base },
      body: JSON.stringify({
        email: 'owner@example.com',
        password: 'correct horse battery',
        name: 'Olive Owner',
      }),
    });
    expect(signedUp.status).toBe(200);
    cookie = signedUp.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    // The calls below go to fictional (555) numbers, whose local time nobody knows: the owner allows them.
    const allowed = await request(one, 'PUT', '/api/consent/settings', {
      window: null,
      unknownLocalTime: 'allow',
    });
    expect(allowed.status).toBe(200);
  }, 120_000);

  it('keep answering once the second has started, each opening new connections', async () => {
    // More parallel requests than either pool has open connections: both must open new ones and succeed.
    for (const server of [one, two, one]) {
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => request(server, 'GET', '/api/contacts').then((r) => r.status)),
      );
      expect(answers).toEqual(Array(12).fill(200));
      expect((await fetch(`${server.base}/api/health`)).status).toBe(200);
    }
  });

  it('ends a simulated call from the other instance', async () => {
    const id = await placeCall(one, '(555) 010-0005');
    await waitFor(async () => (await callStatus(two, id)) === 'in-progress');
    expect((await request(two, 'POST', `/api/calls/${id}/hangup`)).status).toBe(204);
    await waitFor(async () => (await callStatus(two, id)) === 'completed', 3000);
  }, 30_000);

  it('closes what a killed instance left: its calls at once, its import with true counts', async () => {
    const ringing = await placeCall(one, '(555) 010-0007');
    const placedAt = Date.now();
    const other = await placeCall(one, '(555) 010-0008');
    await waitFor(async () => (await callStatus(two, ringing)) === 'in-progress');
    await waitFor(async () => (await callStatus(two, other)) === 'in-progress');

    // An import running on the first instance, fed slowly so it is mid-way when the instance dies.
    const mapping = JSON.stringify(['firstName', 'lastName', 'phone', 'email', 'company']);
    const query = new URLSearchParams({ fileName: 'big.csv', header: 'true', duplicates: 'skip', mapping });
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode('First,Last,Phone,Email,Company\n'));
        for (let i = 0; i < 25_000; i++)
          controller.enqueue(new TextEncoder().encode(`Imp${i},Orted,,imp-${i}@example.com,Co\n`));
        // …and the rest never comes.
      },
    });
    void fetch(`${one.base}/api/contacts/imports?${query.toString()}`, {
      method: 'POST',
      headers: { cookie, origin: one.base, 'content-type': 'application/octet-stream' },
      body,
      duplex: 'half',
    } as RequestInit).catch(() => undefined);
    const imported = async () =>
      (await db.admin.query(`select count(*)::int as n from contacts where email like 'imp-%'`)).rows[0]
        .n as number;
    await waitFor(async () => (await imported()) >= 20_000, 30_000);

    await one.kill();
    // From the surviving instance: END CALL on a call the dead one ran closes it at once.
    expect((await request(two, 'POST', `/api/calls/${other}/hangup`)).status).toBe(204);
    expect(await callStatus(two, other)).toBe('completed');

    // The killed instance starts again: on start it closes the rest of what no process owns.
    one = await start({ DATA_DIR: dataDir(), ...shared });
    expect(await callStatus(two, ringing)).toBe('completed');
    const record = (
      await db.admin.query<{ status: string; created: number; error: string }>(
        `select status, created, error from contact_imports order by created_at desc limit 1`,
      )
    ).rows[0]!;
    expect(record.status).toBe('failed');
    expect(record.created).toBe(await imported());
    expect(record.error).toMatch(/server stopped/);
    const queued = await db.admin.query(
      `select count(*)::int as n from queue_members m join contacts c on c.id = m.contact_id where c.email like 'imp-%'`,
    );
    expect(queued.rows[0].n).toBe(await imported());
    // The number whose call was live is free again (once the 15 s window for the same pair of numbers is over).
    await new Promise((r) => setTimeout(r, Math.max(0, placedAt + 16_000 - Date.now())));
    await placeCall(two, '(555) 010-0007');
  }, 120_000);

  it('finish a bulk call whose instance was killed mid-way, calling no contact twice', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const created = (await (
        await request(one, 'POST', '/api/contacts', {
          firstName: 'Bea',
          lastName: `Bulk ${i}`,
          email: `bea-${i}@example.com`,
          phone: `(555) 011-00${10 + i}`,
        })
      ).json()) as { contact: { id: string } };
      ids.push(created.contact.id);
    }
    const started = await request(one, 'POST', '/api/calls/bulk', { selection: { ids } });
    expect(started.status).toBe(201);
    const jobId = ((await started.json()) as { job: { id: string } }).job.id;
    const done = async () =>
      (
        await db.admin.query(
          `select count(*)::int as n from bulk_call_items where job_id = $1 and state <> 'pending'`,
          [jobId],
        )
      ).rows[0].n as number;
    await waitFor(async () => (await done()) >= 2, 30_000);
    await one.kill();

    // The surviving instance's workers take the job over (at once, or once its janitor frees a job the dead one
    // held) and finish it.
    await waitFor(async () => {
      const job = (await (await request(two, 'GET', `/api/calls/bulk/${jobId}`)).json()) as {
        job: { status: string };
      };
      return job.job.status === 'done';
    }, 60_000);
    const perContact = await db.admin.query<{ n: number }>(
      `select count(*)::int as n from calls where contact_id = any($1::uuid[]) group by contact_id`,
      [ids],
    );
    expect(perContact.rows.map((r) => r.n)).toEqual(Array(6).fill(1));
    one = await start({ DATA_DIR: dataDir(), ...shared });
  }, 120_000);
  it('recovers a parallel round whose instance was killed mid-dial: no contact held for ever, none called twice in a round, the next round from the other instance', async () => {
    // One conversation at a time: the calls of the tests before must have ended.
    await waitFor(async () => {
      const { rows } = await db.admin.query<{ n: number }>(
        `select count(*)::int as n from calls where status not in ('completed', 'busy', 'no-answer', 'failed', 'canceled')`,
      );
      return rows[0]!.n === 0;
    }, 60_000);
    const ids: string[] = [];
    // Numbers ending in 1 ring unanswered (8 s at this scale: 4 s), so the lines are ringing when the instance dies.
    for (let i = 0; i < 3; i++) {
      const created = (await (
        await request(one, 'POST', '/api/contacts', {
          firstName: 'Par',
          lastName: `Allel ${i}`,
          email: `par-${i}@example.com`,
          phone: `(555) 012-00${i}1`,
        })
      ).json()) as { contact: { id: string } };
      ids.push(created.contact.id);
    }
    const made = await request(one, 'POST', '/api/queues', { name: 'Parallel crash', selection: { ids } });
    const queueId = ((await made.json()) as { queue: { id: string } }).queue.id;
    expect(
      (await request(one, 'PUT', `/api/queues/${queueId}/dialing`, { mode: 'parallel', capPercent: null }))
        .status,
    ).toBe(200);
    await seedQueueHistory(db.admin, queueId, 32, new Date());
    const walker = '5f0c3a52-6a36-4d5e-9b7e-0c6c7a4d1e21';
    const first = (await (
      await request(one, 'POST', `/api/queues/${queueId}/parallel/round`, { walker })
    ).json()) as {
      round: { id: string; lines: { contact: { id: string } }[] };
    };
    expect(first.round.lines).toHaveLength(2);
    await one.kill();

    // The other instance's janitor ends the dead one's calls; its next round catches the old one up first (its
    // contacts back in the queue) and rings again, from the top of the queue.
    await waitFor(async () => {
      const { rows } = await db.admin.query<{ n: number }>(
        `select count(*)::int as n from calls where round_id = $1 and status = 'canceled'`,
        [first.round.id],
      );
      return rows[0]!.n === 2;
    }, 60_000);
    const second = (await (
      await request(two, 'POST', `/api/queues/${queueId}/parallel/round`, { walker })
    ).json()) as {
      round: { id: string; lines: { contact: { id: string } }[] };
    };
    expect(second.round.id).not.toBe(first.round.id);
    expect(second.round.lines.map((l) => l.contact.id)).toEqual(first.round.lines.map((l) => l.contact.id));
    const { rows: old } = await db.admin.query<{ line_state: string }>(
      `select line_state from calls where round_id = $1`,
      [first.round.id],
    );
    expect(old.map((r) => r.line_state)).toEqual(['released', 'released']);
    const paused = await request(two, 'POST', `/api/queues/${queueId}/parallel/pause`, { walker });
    expect(paused.status).toBe(200);
    const { rows: members } = await db.admin.query<{ claimed_by: string | null; completed: boolean }>(
      `select claimed_by, completed from queue_members where queue_id = $1`,
      [queueId],
    );
    expect(members).toEqual(Array(3).fill({ claimed_by: null, completed: false }));
    one = await start({ DATA_DIR: dataDir(), ...shared });
  }, 120_000);
});
