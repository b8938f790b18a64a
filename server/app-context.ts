import type pg from 'pg';
import type { Db, DbExecutor } from './db/database.ts';
import type { ReportReads } from './db/report-reads.ts';
import type { SmtpSender } from './mail/smtp-sender.ts';
import type { SecretBox } from './security/secret-box.ts';
import type { TelephonyProvider } from './telephony/telephony-provider.ts';
import { type Auth } from './modules/auth/public.ts';
import type { SystemMailer } from './mail/system-mail.ts';
import type { ChangeHub } from './realtime/change-hub.ts';
import type { BrowserPresence } from './realtime/browser-presence.ts';
import type { DatabaseHealth } from './db/database-health.ts';
import type { WorkTracker } from './instance/work-tracker.ts';
import type { FileStore } from './storage/file-store.ts';

/** What route modules need, built once in app.ts and passed down explicitly. */
/** A Salesforce connected app: its consumer key and secret and the login host (no trailing slash). */
export type SalesforceApp = { clientId: string; clientSecret: string; loginUrl: string };

export type AppContext = {
  /** This server process, as other instances know it (instance/instance-connection.ts). */
  instanceId: string;
  /** Puts newly saved contacts in their owner's default call queue (contact sync; the queues module's). */
  joinDefaultQueue: (db: DbExecutor, userId: string, contactIds: readonly string[]) => Promise<void>;
  /** Whether another server instance is still running (its presence lock is held), as the janitor judges it. */
  isInstanceAlive: (db: DbExecutor, instanceId: string) => Promise<boolean>;
  /** Work that must finish before the database closes (instance/work-tracker.ts). */
  work: WorkTracker;
  /** Whether this instance can really reach its database (GET /api/health). */
  databaseHealth: () => Promise<DatabaseHealth>;
  db: Db;
  /** The pool behind db, for COPY streams (exports). */
  pool: pg.Pool;
  /** Connections of their own for an import's batches (BULK_POOL_SIZE), beside the requests' pool (decision 041). */
  bulkPool: pg.Pool;
  /** Report reads: on the read replica when one is configured and caught up, else on db (decision 040). */
  reportReads: ReportReads;
  auth: Auth;
  mailer: SystemMailer;
  changes: ChangeHub;
  /** Which users have the app open here (their event streams), so an incoming call knows whether anyone can answer. */
  presence: BrowserPresence;
  clock: () => Date;
  publicUrl: string;
  adminEmail: string | undefined;
  secretBox: SecretBox;
  sendSmtp: SmtpSender;
  /** The mail servers users may configure; null: any (SMTP_ALLOWED_HOSTS). */
  smtpAllowedHosts: readonly string[] | null;
  /** Private or local hosts users' outgoing webhooks may reach (WEBHOOK_ALLOWED_HOSTS); null: none. */
  webhookAllowedHosts: readonly string[] | null;
  /** HubSpot's API address (HUBSPOT_API_URL), without a trailing slash. */
  hubspotApiUrl: string;
  /** The Salesforce connected app (decision 037), or null when the operator set none up. */
  salesforce: SalesforceApp | null;
  importMaxBytes: number;
  /** Requests one API key may make per minute (decision 033). */
  apiKeyRequestsPerMinute: number;
  telephony: TelephonyProvider;
  /** The instance's caller ID when a user has set none (E.164), or null. */
  defaultCallerId: string | null;
  /** How long a provider may take to accept a call before it counts as failed. */
  providerTimeoutMs: number;
  /** Where recordings and greetings are stored (decision 029). */
  files: FileStore;
  /** Signs URLs that work without a session until they expire (a recorded greeting a provider fetches). */
  urlSigningKey: string;
  /**
   * How long, in µs since boot, some task on this machine has waited for a CPU (/proc/pressure/cpu), or null where
   * the kernel does not say: what an import steps back for (decision 062).
   */
  readCpuStalledMicros: () => Promise<number | null>;
};
