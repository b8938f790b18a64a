import { Migrator, type Migration, type MigrationProvider, type Kysely } from 'kysely';
import * as m0001 from './migrations/0001-accounts.ts';
import * as m0002 from './migrations/0002-contacts.ts';
import * as m0003 from './migrations/0003-index-friendly-row-security.ts';
import * as m0004 from './migrations/0004-contacts-status-index.ts';
import * as m0005 from './migrations/0005-keyset-paging.ts';
import * as m0006 from './migrations/0006-email-and-imports.ts';
import * as m0007 from './migrations/0007-word-start-search.ts';
import * as m0008 from './migrations/0008-lean-contact-rows.ts';
import * as m0009 from './migrations/0009-calling.ts';
import * as m0010 from './migrations/0010-bulk-calls.ts';
import * as m0011 from './migrations/0011-hardening.ts';
import * as m0012 from './migrations/0012-queue-walks.ts';
import * as m0013 from './migrations/0013-projects.ts';
import * as m0014 from './migrations/0014-import-selection.ts';
import * as m0015 from './migrations/0015-job-queue.ts';
import * as m0016 from './migrations/0016-queue-fill.ts';
import * as m0017 from './migrations/0017-email-campaigns.ts';
import * as m0018 from './migrations/0018-campaign-pause-reason.ts';
import * as m0019 from './migrations/0019-email-sequences.ts';
import * as m0020 from './migrations/0020-sms-campaigns.ts';
import * as m0021 from './migrations/0021-sending-limits.ts';
import * as m0022 from './migrations/0022-reports-and-profile.ts';
import * as m0023 from './migrations/0023-notifications.ts';
import * as m0024 from './migrations/0024-sms-inbound.ts';
import * as m0025 from './migrations/0025-sequence-description.ts';
import * as m0026 from './migrations/0026-consent.ts';
import * as m0027 from './migrations/0027-consent-record.ts';
import * as m0028 from './migrations/0028-express-consent.ts';
import * as m0029 from './migrations/0029-phone-country.ts';
import * as m0030 from './migrations/0030-unknown-local-time-blocks.ts';
import * as m0031 from './migrations/0031-answered-by.ts';
import * as m0032 from './migrations/0032-parallel-dialing.ts';
import * as m0033 from './migrations/0033-abandoned-call-outcome.ts';
import * as m0034 from './migrations/0034-local-presence.ts';
import * as m0035 from './migrations/0035-inbound-calls.ts';
import * as m0036 from './migrations/0036-recordings.ts';
import * as m0037 from './migrations/0037-voicemail-drops.ts';
import * as m0038 from './migrations/0038-missed-calls-to-return.ts';
import * as m0039 from './migrations/0039-calendar-feeds.ts';
import * as m0040 from './migrations/0040-api-keys.ts';
import * as m0041 from './migrations/0041-slack.ts';
import * as m0042 from './migrations/0042-webhooks.ts';
import * as m0043 from './migrations/0043-webhook-events.ts';
import * as m0044 from './migrations/0044-webhook-kick.ts';
import * as m0045 from './migrations/0045-hubspot.ts';
import * as m0046 from './migrations/0046-integration-failed.ts';
import * as m0047 from './migrations/0047-salesforce.ts';
import * as m0048 from './migrations/0048-webhook-capture-quiet.ts';
import * as m0049 from './migrations/0049-change-notices.ts';
import * as m0050 from './migrations/0050-session-viewer.ts';
import * as m0051 from './migrations/0051-api-key-viewer.ts';
import * as m0052 from './migrations/0052-walk-index-only.ts';
import * as m0053 from './migrations/0053-fresh-statistics.ts';
import * as m0054 from './migrations/0054-webhook-log-retention.ts';
import * as m0055 from './migrations/0055-queue-counts-never-wait.ts';
import * as m0056 from './migrations/0056-webhook-events-stored-once.ts';
import * as m0057 from './migrations/0057-default-queue-with-the-account.ts';

/** Forward-only migrations, in order. A new migration is a new file added to this list; none is ever edited. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-accounts': m0001,
  '0002-contacts': m0002,
  '0003-index-friendly-row-security': m0003,
  '0004-contacts-status-index': m0004,
  '0005-keyset-paging': m0005,
  '0006-email-and-imports': m0006,
  '0007-word-start-search': m0007,
  '0008-lean-contact-rows': m0008,
  '0009-calling': m0009,
  '0010-bulk-calls': m0010,
  '0011-hardening': m0011,
  '0012-queue-walks': m0012,
  '0013-projects': m0013,
  '0014-import-selection': m0014,
  '0015-job-queue': m0015,
  '0016-queue-fill': m0016,
  '0017-email-campaigns': m0017,
  '0018-campaign-pause-reason': m0018,
  '0019-email-sequences': m0019,
  '0020-sms-campaigns': m0020,
  '0021-sending-limits': m0021,
  '0022-reports-and-profile': m0022,
  '0023-notifications': m0023,
  '0024-sms-inbound': m0024,
  '0025-sequence-description': m0025,
  '0026-consent': m0026,
  '0027-consent-record': m0027,
  '0028-express-consent': m0028,
  '0029-phone-country': m0029,
  '0030-unknown-local-time-blocks': m0030,
  '0031-answered-by': m0031,
  '0032-parallel-dialing': m0032,
  '0033-abandoned-call-outcome': m0033,
  '0034-local-presence': m0034,
  '0035-inbound-calls': m0035,
  '0036-recordings': m0036,
  '0037-voicemail-drops': m0037,
  '0038-missed-calls-to-return': m0038,
  '0039-calendar-feeds': m0039,
  '0040-api-keys': m0040,
  '0041-slack': m0041,
  '0042-webhooks': m0042,
  '0043-webhook-events': m0043,
  '0044-webhook-kick': m0044,
  '0045-hubspot': m0045,
  '0046-integration-failed': m0046,
  '0047-salesforce': m0047,
  '0048-webhook-capture-quiet': m0048,
  '0049-change-notices': m0049,
  '0050-session-viewer': m0050,
  '0051-api-key-viewer': m0051,
  '0052-walk-index-only': m0052,
  '0053-fresh-statistics': m0053,
  '0054-webhook-log-retention': m0054,
  '0055-queue-counts-never-wait': m0055,
  '0056-webhook-events-stored-once': m0056,
  '0057-default-queue-with-the-account': m0057,
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(MIGRATIONS) };

export const LATEST_MIGRATION = Object.keys(MIGRATIONS).at(-1) ?? null;

/** Runs pending migrations as the schema owner. Kysely's migrator takes a lock, so several instances may start at once. */
export async function migrateToLatest(ownerDb: Kysely<unknown>): Promise<string[]> {
  const migrator = new Migrator({
    db: ownerDb,
    provider,
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(`migration failed: ${JSON.stringify(error)}`);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
