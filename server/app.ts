import { createHmac, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { normalizePhone } from '#domain/contacts/phone.ts';
import { createTelephony, type TelephonyConfig } from './telephony/create-telephony.ts';
import fastifyCookie from '@fastify/cookie';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppContext, SalesforceApp } from './app-context.ts';
import { BULK_POOL_SIZE, createPool, dbOnPool, openEveryConnection, withActor } from './db/database.ts';
import { createReportReads } from './db/report-reads.ts';
import { POOL_WAIT_REPORTED_MS, trackPoolWaits } from './db/pool-waits.ts';
import { createSmtpSender } from './mail/smtp-sender.ts';
import { createSecretBox } from './security/secret-box.ts';
import { createSystemMailer } from './mail/system-mail.ts';
import { createChangeHub } from './realtime/change-hub.ts';
import { watchChangeNotices } from './realtime/change-feed.ts';
import { createBrowserPresence } from './realtime/browser-presence.ts';
import { createInstanceConnection } from './instance/instance-connection.ts';
import { trackLoopDelay } from './process/event-loop-delay.ts';
import { readCpuStalledMicros } from './process/cpu-pressure.ts';
import { traceSlowRequests, type SlowRequestReport } from './process/slow-request-trace.ts';
import { startJanitor } from './instance/janitor.ts';
import { watchBackgroundJobsRunSomewhere } from './instance/background-jobs-watch.ts';
import { createDiskFileStore } from './storage/disk-file-store.ts';
import { createS3FileStore, type S3Settings } from './storage/s3-file-store.ts';
import { createWorkTracker } from './instance/work-tracker.ts';
import { createDatabaseHealth } from './db/database-health.ts';
import { createAuth } from './modules/auth/auth.ts';
import { registerAuthRoutes } from './modules/auth/auth.routes.ts';
import { resolveViewer } from './modules/auth/public.ts';
import { registerSessionRoutes } from './modules/auth/session.routes.ts';
import { registerProfileRoutes } from './modules/auth/profile.routes.ts';
import { registerAdminRoutes } from './modules/admin/admin.routes.ts';
import { registerContactRoutes } from './modules/contacts/contacts.routes.ts';
import { registerQueueRoutes } from './modules/queues/queues.routes.ts';
import { registerQueueWalkRoutes } from './modules/dialer/queue-walk.routes.ts';
import { registerParallelDialingRoutes } from './modules/dialer/parallel-dialing.routes.ts';
import { registerProjectRoutes } from './modules/projects/projects.routes.ts';
import { registerCampaignRoutes } from './modules/campaigns/campaign-routes.ts';
import { emailCampaignRoutes } from './modules/campaigns/email-campaigns.channel.ts';
import { smsCampaignRoutes } from './modules/campaigns/sms-campaigns.channel.ts';
import { registerEmailSequenceRoutes } from './modules/campaigns/email-sequences.routes.ts';
import { registerSimulatedReplyRoutes } from './modules/campaigns/sms-simulated-reply.routes.ts';
import { registerSmsDeliveryRoutes } from './modules/campaigns/sms-delivery.routes.ts';
import { registerSmsInboundRoutes } from './modules/sms/sms-inbound.routes.ts';
import { registerSendingLimitRoutes } from './modules/campaigns/sending-limits.routes.ts';
import { registerCallReportRoutes } from './modules/reports/call-reports.routes.ts';
import { registerReportRoutes } from './modules/reports/reports.routes.ts';
import { registerNotificationRoutes } from './modules/notifications/notifications.routes.ts';
import {
  CALLBACK_DUE_TASK,
  callbackDueTask,
  RECORDING_FETCH_TASK,
  recordingFetchTask,
} from './modules/calls/public.ts';
import {
  NOTIFICATION_EMAIL_TASK,
  notificationEmailTask,
} from './modules/notifications/notification-email.task.ts';
import { registerUnsubscribeRoutes } from './modules/campaigns/unsubscribe.routes.ts';
import { emailSending, SEND_TASKS, sendTask, smsSending } from './modules/campaigns/public.ts';
import { registerEmailConfigurationRoutes } from './modules/email/email-configuration.routes.ts';
import { registerEmailTemplateRoutes } from './modules/email/email-templates.routes.ts';
import { registerContactEmailRoutes } from './modules/email/contact-email.routes.ts';
import { registerContactExportRoutes } from './modules/contact-export/contact-export.routes.ts';
import { registerContactImportRoutes } from './modules/contact-import/import.routes.ts';
import { registerCallRoutes } from './modules/calls/calls.routes.ts';
import { registerIncomingCallRoutes } from './modules/calls/incoming-calls.routes.ts';
import { registerConsentRoutes } from './modules/consent/consent.routes.ts';
import { registerCallerIdRoutes } from './modules/caller-ids/caller-ids.routes.ts';
import { registerTelephonyRoutes } from './modules/calls/telephony.routes.ts';
import { registerDialerRoutes } from './modules/dialer/dialer.routes.ts';
import {
  FILE_DELETIONS_TASK,
  fileDeletionsTask,
  RECORDING_RETENTION_CRONTAB,
  RECORDING_RETENTION_TASK,
  recordingRetentionTask,
  registerRecordingRoutes,
  registerRecordingSettingsRoutes,
  registerVoicemailGreetingRoutes,
  registerVoicemailDropRoutes,
} from './modules/recordings/public.ts';
import { BULK_CALL_TASK, bulkCallTask } from './modules/calls/bulk-call-runner.ts';
import { startJobRunner } from './jobs/job-runner.ts';
import { joinDefaultQueue, QUEUE_FILL_TASK, queueFillTask } from './modules/queues/public.ts';
import { isInstanceAlive, recordJobPool } from './instance/instances.repository.ts';
import { BULK_CALL_SPACING_MS } from '#domain/calls/call-guard.ts';
import { registerHealthRoutes } from './modules/health/health.routes.ts';
import { registerRealtimeRoutes } from './modules/realtime/realtime.routes.ts';
import { registerAccessControl, type RouteAccess } from './plugins/access-control.ts';
import { registerCsrfProtection } from './plugins/csrf.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { registerInputHygiene } from './plugins/input-hygiene.ts';
import { registerJsonBodyParser } from './plugins/json-body.ts';
import { registerWebApp } from './plugins/web-app.ts';
import { registerCompression } from './plugins/compression.ts';
import { registerApiDocs, registerApiDocsRoutes } from './modules/api-docs/api-docs.ts';
import { trustProxyOption } from './http/trust-proxy.ts';
import { inlineScriptHashes, registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerCalendarFeedRoutes } from './modules/calendar/calendar-feed.routes.ts';
import { registerApiKeyRoutes, resolveApiKeyViewer } from './modules/api-keys/public.ts';
import { registerSlackRoutes, SLACK_POST_TASK, slackPostTask } from './modules/slack/public.ts';
import {
  registerWebhookRoutes,
  WEBHOOK_DELIVER_TASK,
  WEBHOOK_LOG_RETENTION_CRONTAB,
  WEBHOOK_LOG_RETENTION_TASK,
  webhookLogRetentionTask,
  WEBHOOK_SWEEP_CRONTAB,
  WEBHOOK_SWEEP_TASK,
  webhookDeliverTask,
  watchWebhookDeliveries,
  webhookSweepTask,
} from './modules/webhooks/public.ts';
import {
  HUBSPOT_IMPORT_TASK,
  HUBSPOT_LOG_CALL_TASK,
  hubspotImportTask,
  hubspotLogCallTask,
  registerHubspotRoutes,
} from './modules/hubspot/public.ts';
import {
  SALESFORCE_IMPORT_TASK,
  SALESFORCE_LOG_CALL_TASK,
  registerSalesforceRoutes,
  salesforceImportTask,
  salesforceLogCallTask,
} from './modules/salesforce/public.ts';
import { DEFAULT_API_KEY_REQUESTS_PER_MINUTE } from '#domain/api-keys/api-key.ts';

/** A replica that does not give a connection within this long is left for the primary (db/report-reads.ts). */
const REPLICA_ACQUIRE_TIMEOUT_MS = 2_000;

export type AppConfig = {
  databaseUrl: string;
  poolSize: number;
  /** Repeated statements prepared per connection (DATABASE_PREPARED_STATEMENTS, decision 049); on unless false. */
  preparedStatements?: boolean;
  /** A streaming replica of the same database for report reads (DATABASE_REPLICA_URL, decision 040); none: primary. */
  replicaDatabaseUrl?: string | null;
  sessionSecret: string;
  publicUrl: string;
  trustedOrigins: string[];
  /** Proxies believed about the client's address and scheme: none, a number of hops, or their addresses. */
  trustProxy: false | number | string[];
  adminEmail: string | undefined;
  systemSmtpUrl: string | undefined;
  systemMailFrom: string;
  logLevel: string;
  webDist: string | null;
  /** Seals secrets stored for users (SMTP passwords): 32 bytes, base64. */
  encryptionKey: string;
  /** Extra trusted CA certificates (PEM) for users' mail servers, e.g. a company's private CA. */
  smtpTrustedCa?: string | undefined;
  /** The mail servers users may configure (SMTP_ALLOWED_HOSTS); null or absent: any. */
  smtpAllowedHosts?: string[] | null;
  /** Private or local hosts users' outgoing webhooks may reach (WEBHOOK_ALLOWED_HOSTS); none by default. */
  webhookAllowedHosts?: string[] | null;
  /** HubSpot's API (decision 036); https://api.hubapi.com when absent. */
  hubspotApiUrl?: string;
  /** Salesforce's connected app (decision 037); absent, Salesforce cannot be connected. */
  salesforce?: SalesforceApp | null;
  /** Largest import file accepted, in bytes (answered with 413 before it is read). */
  importMaxBytes?: number;
  /** Requests one API key may make per minute (API_KEY_REQUESTS_PER_MINUTE). */
  apiKeyRequestsPerMinute?: number;
  /** The telephony provider; the simulator by default, its time scaled down in tests. */
  telephony?: TelephonyConfig;
  /** The instance's caller ID (E.164); on the simulator one exists out of the box (decision 000). */
  defaultCallerId?: string | null;
  clock?: () => Date;
  /** How long some task on this machine has waited for a CPU, µs (decision 062); /proc/pressure/cpu by default. */
  readCpuStalledMicros?: () => Promise<number | null>;
  /** How often the job queue looks for jobs that became due (new jobs are announced at once). */
  jobPollIntervalMs?: number;
  /** False: this instance queues jobs but never runs them; others on the database do (BACKGROUND_JOBS=off). */
  runJobs?: boolean;
  /** Requests slower than this are logged with where their time went (SLOW_REQUEST_LOG_MS); unset, none. */
  slowRequestLogMs?: number;
  /** Where those slow requests are reported; the log (a warning each) by default. */
  reportSlowRequest?: (slow: SlowRequestReport) => void;
  /** How long in-flight requests get to finish when the server closes, before their connections are cut. */
  closeGraceMs?: number;
  /** Where recordings and greetings are stored (FILES_DIR; the data directory's `files` by default). */
  filesDir: string;
  /** An S3-compatible bucket to store them in instead of `filesDir` (FILES_S3_*). */
  filesS3?: S3Settings;
};

/** The CSP hashes of the built index.html's inline scripts (none without a build: tests, development). */
function webIndexInlineHashes(webDist: string | null): string[] {
  const index = webDist ? path.join(webDist, 'index.html') : null;
  return index && existsSync(index) ? inlineScriptHashes(readFileSync(index, 'utf8')) : [];
}

const DEFAULT_IMPORT_MAX_BYTES = 200 * 1024 * 1024;
/** The simulator's own caller ID, so the first call works with no set-up (decision 000 "Caller-ID numbers"). */
const SIMULATOR_CALLER_ID = '+15550100000';

/** Builds the whole server without listening; tests drive it with app.inject(). */
export type App = FastifyInstance & { ctx: AppContext; routeTable: RouteAccess[] };

export async function buildApp(config: AppConfig): Promise<App> {
  const app = Fastify({
    logger: { level: config.logLevel, redact: ['req.headers.cookie', 'req.headers.authorization'] },
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // A connection silent for 2 minutes (a stalled upload, a reader that stopped reading) is closed, so no
    // request waits forever; the event stream's 25 s heartbeat keeps it open.
    connectionTimeout: 120_000,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const prepareStatements = config.preparedStatements !== false;
  const pool = createPool(config.databaseUrl, config.poolSize, { prepareStatements });
  // Before the waits are watched: opening them is not a request waiting.
  await openEveryConnection(pool, config.poolSize);
  const stopPoolWaits = trackPoolWaits(pool, ({ count, longestMs, opening }) =>
    app.log.warn(
      { count, longestMs, opening },
      `${count} waits over ${POOL_WAIT_REPORTED_MS} ms for a database connection in the last 10 s (DATABASE_POOL_SIZE ${config.poolSize}; ${opening} of them while a new connection opened)`,
    ),
  );
  const stopLoopDelay = trackLoopDelay(({ maxMs, p99Ms, meanMs }) =>
    app.log.warn(
      { maxMs, p99Ms, meanMs },
      `The event loop was held up to ${maxMs} ms in the last 10 s (p99 ${p99Ms} ms): requests waited behind the server's own work`,
    ),
  );
  const db = dbOnPool(pool);
  // Imports save on connections of their own, so they never take a request's (decision 041).
  const bulkPool = createPool(config.databaseUrl, BULK_POOL_SIZE, { prepareStatements });
  const replicaPool = config.replicaDatabaseUrl
    ? createPool(config.replicaDatabaseUrl, config.poolSize, {
        acquireTimeoutMs: REPLICA_ACQUIRE_TIMEOUT_MS,
        prepareStatements,
      })
    : null;
  const replicaDb = replicaPool ? dbOnPool(replicaPool) : null;
  if (config.slowRequestLogMs !== undefined)
    traceSlowRequests(
      app,
      [pool, bulkPool, ...(replicaPool ? [replicaPool] : [])],
      config.slowRequestLogMs,
      config.reportSlowRequest ??
        ((slow) =>
          app.log.warn({ slowRequest: slow }, `${slow.method} ${slow.route} took ${slow.totalMs} ms`)),
    );
  const mailer = createSystemMailer({
    db,
    smtpUrl: config.systemSmtpUrl,
    from: config.systemMailFrom,
    log: app.log,
  });
  const trustedFor = (request: Request | undefined) => {
    const origins = [config.publicUrl, ...config.trustedOrigins].map((o) => new URL(o).origin);
    if (request) origins.push(new URL(request.url).origin);
    return origins;
  };
  const auth = createAuth({
    db,
    secret: config.sessionSecret,
    publicUrl: config.publicUrl,
    trustedOrigins: trustedFor,
    adminEmail: config.adminEmail,
    mailer,
    log: app.log,
  });
  const instanceId = randomUUID();
  const connection = createInstanceConnection({
    connectionString: config.databaseUrl,
    instanceId,
    log: app.log,
  });
  const changes = createChangeHub();
  const files = config.filesS3
    ? await createS3FileStore(config.filesS3)
    : await createDiskFileStore(config.filesDir);
  const ctx: AppContext = {
    instanceId,
    isInstanceAlive,
    joinDefaultQueue,
    work: createWorkTracker(),
    databaseHealth: createDatabaseHealth(pool, config.databaseUrl),
    db,
    pool,
    bulkPool,
    reportReads: createReportReads(
      { db, pool },
      replicaDb && replicaPool ? { db: replicaDb, pool: replicaPool } : null,
      (message) => app.log.warn(message),
    ),
    auth,
    mailer,
    changes,
    presence: createBrowserPresence(connection),
    clock: config.clock ?? (() => new Date()),
    publicUrl: config.publicUrl.replace(/\/$/, ''),
    adminEmail: config.adminEmail,
    secretBox: createSecretBox(config.encryptionKey),
    sendSmtp: createSmtpSender({
      trustedCa: config.smtpTrustedCa,
      allowedHosts: config.smtpAllowedHosts ?? null,
    }),
    smtpAllowedHosts: config.smtpAllowedHosts ?? null,
    webhookAllowedHosts: config.webhookAllowedHosts ?? null,
    hubspotApiUrl: (config.hubspotApiUrl ?? 'https://api.hubapi.com').replace(/\/$/, ''),
    salesforce: config.salesforce
      ? { ...config.salesforce, loginUrl: config.salesforce.loginUrl.replace(/\/$/, '') }
      : null,
    importMaxBytes: config.importMaxBytes ?? DEFAULT_IMPORT_MAX_BYTES,
    apiKeyRequestsPerMinute: config.apiKeyRequestsPerMinute ?? DEFAULT_API_KEY_REQUESTS_PER_MINUTE,
    telephony: createTelephony(config.telephony, {
      app,
      db,
      connection,
      sessionSecret: config.sessionSecret,
      publicUrl: config.publicUrl,
    }),
    defaultCallerId:
      config.defaultCallerId === undefined
        ? config.telephony?.provider === 'twilio'
          ? null
          : SIMULATOR_CALLER_ID
        : normalizePhone(config.defaultCallerId),
    providerTimeoutMs: config.telephony?.timeoutMs ?? 10_000,
    files,
    urlSigningKey: createHmac('sha256', config.sessionSecret).update('signed-urls').digest('base64url'),
    readCpuStalledMicros: config.readCpuStalledMicros ?? readCpuStalledMicros,
  };

  await app.register(fastifyCookie);
  // First of the request hooks, so answers refused early (401, the CSRF 403, 413) carry the headers too.
  registerSecurityHeaders(app, webIndexInlineHashes(config.webDist));
  registerJsonBodyParser(app);
  await registerCompression(app);
  registerErrorHandler(app);
  const trusted = [config.publicUrl, ...config.trustedOrigins].map((o) => new URL(o).origin);
  registerCsrfProtection(app, trusted);
  registerInputHygiene(app);
  // A request that may have changed something has the change feed look at once rather than at its next tick, so
  // the pages of a change made through this instance hear of it within milliseconds (decision 038).
  let changeFeedSoon: () => void = () => undefined;
  app.addHook('onResponse', (request, _reply, done) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS')
      changeFeedSoon();
    done();
  });
  const routeTable = registerAccessControl(
    app,
    (request, setCookies) => resolveViewer(ctx, request, setCookies),
    (secret) => resolveApiKeyViewer(ctx, secret),
  );
  await registerApiDocs(app);

  registerAuthRoutes(app, ctx);
  registerHealthRoutes(app, ctx);
  registerSessionRoutes(app, ctx);
  registerProfileRoutes(app, ctx);
  registerRealtimeRoutes(app, ctx);
  registerAdminRoutes(app, ctx);
  registerContactRoutes(app, ctx);
  registerQueueRoutes(app, ctx);
  registerQueueWalkRoutes(app, ctx);
  registerParallelDialingRoutes(app, ctx);
  registerProjectRoutes(app, ctx);
  registerCampaignRoutes(app, ctx, emailCampaignRoutes);
  registerEmailSequenceRoutes(app, ctx);
  registerCampaignRoutes(app, ctx, smsCampaignRoutes);
  registerSimulatedReplyRoutes(app, ctx);
  registerSmsDeliveryRoutes(app, ctx);
  registerSmsInboundRoutes(app, ctx);
  registerSendingLimitRoutes(app, ctx);
  registerCallReportRoutes(app, ctx);
  registerReportRoutes(app, ctx);
  registerNotificationRoutes(app, ctx);
  registerUnsubscribeRoutes(app, ctx);
  registerEmailConfigurationRoutes(app, ctx);
  registerEmailTemplateRoutes(app, ctx);
  registerContactEmailRoutes(app, ctx);
  registerContactExportRoutes(app, ctx);
  registerContactImportRoutes(app, ctx);
  registerCallRoutes(app, ctx);
  registerIncomingCallRoutes(app, ctx);
  registerConsentRoutes(app, ctx);
  registerCallerIdRoutes(app, ctx);
  registerTelephonyRoutes(app, ctx);
  registerDialerRoutes(app, ctx);
  registerRecordingRoutes(app, ctx);
  registerRecordingSettingsRoutes(app, ctx);
  registerVoicemailGreetingRoutes(app, ctx);
  registerVoicemailDropRoutes(app, ctx);
  registerCalendarFeedRoutes(app, ctx);
  registerApiKeyRoutes(app, ctx);
  registerSlackRoutes(app, ctx);
  registerWebhookRoutes(app, ctx);
  registerHubspotRoutes(app, ctx);
  registerSalesforceRoutes(app, ctx);
  await registerApiDocsRoutes(app, ctx);
  await registerWebApp(app, config.webDist);

  await connection.start();
  const changeFeed = await watchChangeNotices(db, changes, app.log);
  changeFeedSoon = changeFeed.soon;
  const stopJanitor = await startJanitor(ctx, app.log);
  const bulkSpacingMs = config.telephony?.bulkSpacingMs ?? BULK_CALL_SPACING_MS;
  const jobs =
    (config.runJobs ?? true)
      ? await startJobRunner({
          connectionString: config.databaseUrl,
          tasks: {
            [BULK_CALL_TASK]: bulkCallTask(ctx, bulkSpacingMs),
            [QUEUE_FILL_TASK]: queueFillTask(db),
            [SEND_TASKS.email]: sendTask(ctx, emailSending),
            [SEND_TASKS.sms]: sendTask(ctx, smsSending),
            [NOTIFICATION_EMAIL_TASK]: notificationEmailTask(ctx),
            [CALLBACK_DUE_TASK]: callbackDueTask(ctx),
            [FILE_DELETIONS_TASK]: fileDeletionsTask(ctx),
            [RECORDING_RETENTION_TASK]: recordingRetentionTask(ctx),
            [RECORDING_FETCH_TASK]: recordingFetchTask(ctx),
            [SLACK_POST_TASK]: slackPostTask(ctx),
            [WEBHOOK_DELIVER_TASK]: webhookDeliverTask(ctx),
            [WEBHOOK_SWEEP_TASK]: webhookSweepTask(ctx),
            [WEBHOOK_LOG_RETENTION_TASK]: webhookLogRetentionTask(ctx),
            [HUBSPOT_LOG_CALL_TASK]: hubspotLogCallTask(ctx),
            [HUBSPOT_IMPORT_TASK]: hubspotImportTask(ctx),
            [SALESFORCE_LOG_CALL_TASK]: salesforceLogCallTask(ctx),
            [SALESFORCE_IMPORT_TASK]: salesforceImportTask(ctx),
          },
          log: app.log,
          pollIntervalMs: config.jobPollIntervalMs ?? 500,
          crontab: [RECORDING_RETENTION_CRONTAB, WEBHOOK_SWEEP_CRONTAB, WEBHOOK_LOG_RETENTION_CRONTAB].join(
            '\n',
          ),
        })
      : null;
  if (jobs) await withActor(db, { kind: 'system' }, (trx) => recordJobPool(trx, instanceId, jobs.poolId));
  else
    app.log.info('background jobs are off on this instance (BACKGROUND_JOBS=off): other instances run them');
  // Queuing webhook deliveries is background work too: the instances that run jobs do it.
  const stopWebhookWatch = jobs ? watchWebhookDeliveries(ctx, app.log) : () => undefined;
  const stopJobsWatch = jobs ? () => undefined : watchBackgroundJobsRunSomewhere(ctx, app.log);
  registerGracefulClose(app, config.closeGraceMs ?? 10_000, () => {
    changeFeed.stop();
    stopJanitor();
    stopWebhookWatch();
    stopJobsWatch();
    changes.closeAll();
  });
  app.addHook('onClose', async () => {
    await jobs?.stop();
    // Work recording how it ended (an import cut off by the close) runs after the connections are cut, so it gets
    // a bound of its own: the grace again, at least 3 s (time for the batch being written to settle on a busy box).
    // Grace plus drain stays within the 20 s after which main.ts exits regardless.
    await ctx.work.drain(Math.max(config.closeGraceMs ?? 10_000, 3_000));
    await connection.stop();
    stopPoolWaits();
    stopLoopDelay();
    await db.destroy();
    await bulkPool.end();
    await replicaDb?.destroy();
  });
  app.decorate('ctx', ctx);
  app.decorate('routeTable', routeTable);
  return app as unknown as App;
}

/**
 * Closing (SIGTERM, or a test's close) finishes in bounded time: background work stops and event streams end at
 * once; requests still running get `graceMs` to finish, then their connections are cut, which ends any upload or
 * download they hold and so gives their database connections back before the pool closes.
 */
function registerGracefulClose(app: FastifyInstance, graceMs: number, stopBackground: () => void): void {
  app.addHook('preClose', async () => {
    stopBackground();
    setTimeout(() => app.server.closeAllConnections(), graceMs).unref();
  });
}
