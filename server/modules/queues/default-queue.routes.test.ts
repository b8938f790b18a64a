import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kysely, PostgresDialect } from 'kysely';
import { DEFAULT_QUEUE_ID, DEFAULT_QUEUE_NAME } from '#domain/contacts/queue.schema.ts';
import { up as giveEveryAccountItsDefaultQueue } from '../../db/migrations/0057-default-queue-with-the-account.ts';
import { asCookie, createAccount, createTestApp, type TestContext } from '../../test/test-app.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const defaultQueues = async (userId: string) =>
  Number(
    (
      await ctx.db.admin.query(
        'select count(*) from power_dialer_queues where user_id = $1 and queue_id = $2',
        [userId, DEFAULT_QUEUE_ID],
      )
    ).rows[0].count,
  );

describe('the default call queue comes with the account (decision 058)', () => {
  it('exists from sign-up, before any screen lists queues, and is listed with no contacts in it', async () => {
    const rep = await createAccount(ctx, 'user');
    expect(await defaultQueues(rep.userId)).toBe(1);
    const response = await ctx.app.inject({ method: 'GET', url: '/api/queues', headers: asCookie(rep) });
    expect(response.statusCode).toBe(200);
    expect(response.json().queues).toEqual([
      expect.objectContaining({ queueId: DEFAULT_QUEUE_ID, name: DEFAULT_QUEUE_NAME, total: 0 }),
    ]);
    expect(await defaultQueues(rep.userId)).toBe(1);
  });

  it('is made on the first list when its creation at sign-up did not happen, once however many lists ask', async () => {
    const rep = await createAccount(ctx, 'user');
    await ctx.db.admin.query('delete from power_dialer_queues where user_id = $1', [rep.userId]);
    const lists = await Promise.all(
      Array.from({ length: 10 }, () =>
        ctx.app.inject({ method: 'GET', url: '/api/queues', headers: asCookie(rep) }),
      ),
    );
    for (const list of lists) {
      expect(list.statusCode).toBe(200);
      expect(list.json().queues.map((q: { queueId: string }) => q.queueId)).toEqual([DEFAULT_QUEUE_ID]);
    }
    expect(await defaultQueues(rep.userId)).toBe(1);
  });

  it('is given by the migration to every account that lacks one, and never twice', async () => {
    const without = await createAccount(ctx, 'user');
    const withIt = await createAccount(ctx, 'user');
    await ctx.db.admin.query('delete from power_dialer_queues where user_id = $1', [without.userId]);
    const owner = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: ctx.db.admin }) });
    await giveEveryAccountItsDefaultQueue(owner);
    await giveEveryAccountItsDefaultQueue(owner);
    expect(await defaultQueues(without.userId)).toBe(1);
    expect(await defaultQueues(withIt.userId)).toBe(1);
    const { rows } = await ctx.db.admin.query<{ forced: boolean }>(
      `select relforcerowsecurity as forced from pg_class where relname = 'power_dialer_queues'`,
    );
    expect(rows[0]?.forced).toBe(true);
  });
});
