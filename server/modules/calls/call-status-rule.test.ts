import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceStatus, CallStatusSchema, isFinished } from '#domain/calls/call-status.ts';
import { createDb, withActor, type Db } from '../../db/database.ts';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.ts';
import { applyStatusEvent } from './calls.repository.ts';

/**
 * The rule that runs is the rule that is tested: for every status a call can be in and every status a provider can
 * report, the database moves the call exactly as the domain's advanceStatus says.
 */
let db: TestDatabase;
let app: Db;
let userId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  app = createDb(db.appUrl, 2);
  userId = randomUUID();
  await db.admin.query(`insert into auth_users (id, email) values ($1, 'rule@example.com')`, [userId]);
});
afterAll(async () => {
  await app.destroy();
  await db.drop();
});

describe('the call-status rule in SQL', () => {
  it('agrees with the domain for all 81 pairs of current and reported status', async () => {
    const statuses = CallStatusSchema.options;
    const disagreements: string[] = [];
    for (const current of statuses) {
      for (const reported of statuses) {
        const providerCallId = `SIM${randomUUID().replace(/-/g, '')}`;
        const { rows } = await db.admin.query<{ id: string }>(
          `insert into calls (user_id, request_id, provider, provider_call_id, from_number, to_number, status, updated_at)
           values ($1, substr(md5(random()::text), 1, 8), 'simulator', $2, '+15550100000', '+15550100005', $3, now())
           returning id`,
          [userId, providerCallId, current],
        );
        const callId = rows[0]!.id;
        await withActor(app, { kind: 'system' }, (trx) =>
          applyStatusEvent(
            trx,
            { provider: 'simulator', callId, providerCallId, status: reported, durationSeconds: 5 },
            new Date(),
          ),
        );
        const after = await db.admin.query<{ status: string; ended_at: Date | null }>(
          'select status, ended_at from calls where id = $1',
          [callId],
        );
        const expected = advanceStatus(current, reported);
        const moved = expected !== current;
        const got = after.rows[0]!;
        if (got.status !== expected)
          disagreements.push(`${current} + ${reported}: ${got.status}, expected ${expected}`);
        if (moved && isFinished(expected) && !got.ended_at)
          disagreements.push(`${current} + ${reported}: no end time`);
      }
    }
    expect(disagreements).toEqual([]);
  });
});
