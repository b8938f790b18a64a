import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withActor } from '../../db/database.ts';
import {
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';
import { newcomerAfterLastSample } from '../../test/stale-statistics.ts';
import { runImport } from '../contact-import/public.ts';
import { nextEmailRecipientQuery } from './email-sends.repository.ts';
import { nextSmsRecipientQuery } from './sms-sends.repository.ts';

/**
 * A floor where PostgreSQL last sampled the contacts before a new rep arrived (autovacuum off here, as on a large
 * table where an import changes too small a share to wake it): the rep imports 2,000 contacts and mails them all.
 * Row security adds `user_id = <the rep>` to every read of contacts; had the statistics still said this rep has none,
 * the planner would look the next recipient's contact up through the rep's contacts (a scan of half of them per
 * message) rather than by its key. The import refreshes them (decision 042).
 */
let ctx: TestContext;
let newcomer: Session;
const IMPORTED = 2_000;

beforeAll(async () => {
  ctx = await createTestApp();
  await createAccount(ctx, 'admin');
  newcomer = await newcomerAfterLastSample(ctx);
  async function* rows() {
    for (let i = 1; i <= IMPORTED; i++)
      yield { row: i, cells: [`Lead${i}`, 'New', `n${i}@newcomer.example`, `+1555${2000000 + i}`] };
  }
  const report = await runImport(
    ctx.app.ctx,
    {
      userId: newcomer.userId,
      fileName: 'leads.csv',
      format: 'csv',
      rows: rows(),
      unreadable: [],
      mapping: ['firstName', 'lastName', 'email', 'phone'],
      hasHeader: false,
      duplicates: 'skip',
    },
    () => undefined,
  );
  expect(report.created).toBe(IMPORTED);
});
afterAll(() => ctx.close());

/** How the plan of a query as the newcomer finds contacts: the index it reads them by. */
async function contactsIndex(
  query: (trx: Parameters<Parameters<typeof withActor>[2]>[0]) => {
    explain: (format: 'json') => Promise<unknown[]>;
  },
): Promise<string[]> {
  const plan = await withActor(ctx.app.ctx.db, { kind: 'user', userId: newcomer.userId }, async (trx) =>
    JSON.stringify(await query(trx).explain('json')),
  );
  const scans = [...plan.matchAll(/\{[^{}]*"Relation Name":"contacts"[^{}]*\}/g)].map((m) => m[0]);
  return scans.map((scan) => /"Index Name":"([^"]+)"/.exec(scan)?.[1] ?? 'none');
}

describe('sending to contacts just imported', () => {
  it('reads each next recipient’s contact by its key, the import having refreshed the statistics', async () => {
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/email-campaigns',
      headers: asCookie(newcomer),
      payload: {
        name: 'New leads',
        subject: 'Hello',
        body: 'A word.',
        perMinute: 60,
        selection: { allMatching: {} },
      },
    });
    expect(created.statusCode).toBe(201);
    const campaignId: string = created.json().campaign.id;
    expect(await contactsIndex((trx) => nextEmailRecipientQuery(trx, campaignId, null))).toEqual([
      'contacts_pkey',
    ]);
    expect(await contactsIndex((trx) => nextSmsRecipientQuery(trx, randomUUID(), new Date()))).toEqual([
      'contacts_pkey',
    ]);
  });
});
