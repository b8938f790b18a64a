import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContactFilterSchema } from '#domain/contacts/contact-list.schema.ts';
import { withActor } from '../../db/database.ts';
import {
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';
import { newcomerAfterLastSample } from '../../test/stale-statistics.ts';
import { matchingIdsQuery, orderedSelection } from './contact-selection.repository.ts';

let ctx: TestContext;
let newcomer: Session;
const NEWCOMER_CONTACTS = 2_000;

/**
 * A floor where PostgreSQL last sampled the contacts table before a new user's contacts arrived (an import or a sync
 * adds fewer rows than autovacuum waits for on a large table): its statistics say this user has next to none.
 */
beforeAll(async () => {
  ctx = await createTestApp();
  await createAccount(ctx, 'admin');
  newcomer = await newcomerAfterLastSample(ctx);
  // Names whose order is not the order they were added in.
  await ctx.db.admin.query(
    `insert into contacts (user_id, first_name, last_name, email)
     select $1, 'Lead' || lpad(((g * 7919) % $2)::text, 5, '0'), 'New', 'n' || g || '@newcomer.example'
     from generate_series(1, $2::int) g`,
    [newcomer.userId, NEWCOMER_CONTACTS],
  );
});
afterAll(() => ctx.close());

describe('a whole filter as an ordered selection', () => {
  it('reads the matching contacts in one pass, however few the statistics think the user has', async () => {
    const plan = await withActor(ctx.app.ctx.db, { kind: 'user', userId: newcomer.userId }, async (trx) => {
      const filter = ContactFilterSchema.parse({ search: 'lead' });
      const source = orderedSelection(
        newcomer.userId,
        matchingIdsQuery(trx, newcomer.userId, filter, 'all', new Date()),
      );
      const { rows } = await sql<{ 'QUERY PLAN': unknown }>`explain (format json) ${source}`.execute(trx);
      return JSON.stringify(rows[0]!['QUERY PLAN']);
    });
    // Matching the filter's contacts back to the table (`id in (filter)`) is a second scan of contacts: with these
    // statistics it became a nested loop reading all the user's contacts once per contact.
    expect(plan.match(/"Relation Name":"contacts"/g)).toHaveLength(1);
  });

  it('gives a campaign for all matching contacts every one of them, in name order, and nobody else’s', async () => {
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/email-campaigns',
      headers: asCookie(newcomer),
      payload: {
        name: 'Newcomer mail',
        subject: 'Hello',
        body: 'A word.',
        perMinute: 60,
        selection: { allMatching: {} },
      },
    });
    expect(created.statusCode).toBe(201);
    const { rows } = await ctx.db.admin.query<{ name: string; owner: string }>(
      `select c.first_name as name, c.user_id as owner from email_campaign_recipients r
       join contacts c on c.id = r.contact_id where r.campaign_id = $1 order by r.position`,
      [created.json().campaign.id],
    );
    expect(rows).toHaveLength(NEWCOMER_CONTACTS);
    expect(new Set(rows.map((r) => r.owner))).toEqual(new Set([newcomer.userId]));
    const names = rows.map((r) => r.name);
    expect(names).toEqual([...names].sort());
  });
});
