import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createHmac } from 'node:crypto';
import { ConfigError, parseEnv } from './config/env.ts';
import { loadOrCreateSecrets } from './config/secrets.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './db/embedded-postgres.ts';
import { appUrlFrom, ensureDatabaseExists, prepareSchema } from './db/database.ts';
import { buildApp } from './app.ts';

const EMBEDDED_DATABASE = 'callcrm';

/** Starts the product: configuration, database (embedded unless DATABASE_URL), migrations, then the HTTP server. */
async function main(): Promise<void> {
  const env = parseEnv(process.env);
  const log = (message: string) => console.log(JSON.stringify({ level: 30, time: Date.now(), msg: message }));
  const dataDir = path.resolve(env.DATA_DIR);
  const secrets = loadOrCreateSecrets(dataDir);
  const sessionSecret = env.SESSION_SECRET ?? secrets.sessionSecret;

  let embedded: EmbeddedPostgres | null = null;
  let ownerUrl = env.DATABASE_URL;
  if (!ownerUrl) {
    embedded = await startEmbeddedPostgres({
      dataDir,
      port: env.EMBEDDED_PG_PORT,
      password: secrets.postgresPassword,
      log,
    });
    await ensureDatabaseExists(embedded.url('postgres'), EMBEDDED_DATABASE);
    ownerUrl = embedded.url(EMBEDDED_DATABASE);
  }
  // The app role's password to record if the database has none yet (the first instance's); later instances read
  // the recorded one, so no instance ever changes it under the others (docs/decisions/011-hardening.md).
  const firstAppPassword = env.SESSION_SECRET
    ? createHmac('sha256', env.SESSION_SECRET).update('app-db-password').digest('base64url')
    : secrets.appDbPassword;
  const appRole = env.DATABASE_APP_URL
    ? decodeURIComponent(new URL(env.DATABASE_APP_URL).username)
    : env.DATABASE_APP_ROLE;
  const { applied, appPassword } = await prepareSchema({
    ownerUrl,
    appRole,
    appPassword: env.DATABASE_APP_URL ? null : firstAppPassword,
  });
  if (applied.length > 0) log(`applied migrations: ${applied.join(', ')}`);

  const publicUrl = env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
  const appUrl = env.DATABASE_APP_URL ?? appUrlFrom(ownerUrl, appRole, appPassword ?? firstAppPassword);
  const replicaUrl = env.DATABASE_REPLICA_URL;
  const app = await buildApp({
    databaseUrl: appUrl,
    // The replica is the same database: the app connects to it as itself unless the URL names someone.
    replicaDatabaseUrl:
      replicaUrl && !new URL(replicaUrl).username
        ? appUrlFrom(
            replicaUrl,
            decodeURIComponent(new URL(appUrl).username),
            decodeURIComponent(new URL(appUrl).password),
          )
        : replicaUrl,
    poolSize: env.DATABASE_POOL_SIZE,
    preparedStatements: env.DATABASE_PREPARED_STATEMENTS === 'on',
    sessionSecret,
    publicUrl,
    trustedOrigins:
      env.TRUSTED_ORIGINS?.split(',')
        .map((o) => o.trim())
        .filter(Boolean) ?? [],
    trustProxy: env.TRUST_PROXY,
    adminEmail: env.ADMIN_EMAIL,
    systemSmtpUrl: env.SYSTEM_SMTP_URL,
    systemMailFrom: env.SYSTEM_MAIL_FROM ?? `CallCRM <no-reply@${new URL(publicUrl).hostname}>`,
    logLevel: env.LOG_LEVEL,
    webDist: path.resolve('dist/web'),
    encryptionKey: env.ENCRYPTION_KEY ?? secrets.encryptionKey,
    smtpTrustedCa: env.SMTP_CA_FILE ? readFileSync(env.SMTP_CA_FILE, 'utf8') : undefined,
    smtpAllowedHosts: env.SMTP_ALLOWED_HOSTS,
    webhookAllowedHosts: env.WEBHOOK_ALLOWED_HOSTS,
    hubspotApiUrl: env.HUBSPOT_API_URL,
    salesforce:
      env.SALESFORCE_CLIENT_ID && env.SALESFORCE_CLIENT_SECRET
        ? {
            clientId: env.SALESFORCE_CLIENT_ID,
            clientSecret: env.SALESFORCE_CLIENT_SECRET,
            loginUrl: env.SALESFORCE_LOGIN_URL,
          }
        : null,
    importMaxBytes: env.IMPORT_MAX_MB * 1024 * 1024,
    runJobs: env.BACKGROUND_JOBS === 'on',
    ...(env.SLOW_REQUEST_LOG_MS !== undefined && { slowRequestLogMs: env.SLOW_REQUEST_LOG_MS }),
    apiKeyRequestsPerMinute: env.API_KEY_REQUESTS_PER_MINUTE,
    filesDir: env.FILES_DIR ? path.resolve(env.FILES_DIR) : path.join(dataDir, 'files'),
    ...(env.FILES_S3_BUCKET && {
      filesS3: {
        bucket: env.FILES_S3_BUCKET,
        region: env.FILES_S3_REGION,
        forcePathStyle: env.FILES_S3_PATH_STYLE
          ? env.FILES_S3_PATH_STYLE === 'true'
          : env.FILES_S3_ENDPOINT !== undefined,
        ...(env.FILES_S3_ENDPOINT && { endpoint: env.FILES_S3_ENDPOINT }),
        ...(env.FILES_S3_ACCESS_KEY_ID &&
          env.FILES_S3_SECRET_ACCESS_KEY && {
            credentials: {
              accessKeyId: env.FILES_S3_ACCESS_KEY_ID,
              secretAccessKey: env.FILES_S3_SECRET_ACCESS_KEY,
            },
          }),
      },
    }),
    telephony:
      env.TELEPHONY_PROVIDER === 'twilio'
        ? {
            provider: 'twilio',
            twilio: {
              accountSid: env.TWILIO_ACCOUNT_SID!,
              authToken: env.TWILIO_AUTH_TOKEN!,
              apiKeySid: env.TWILIO_API_KEY_SID!,
              apiKeySecret: env.TWILIO_API_KEY_SECRET!,
              twimlAppSid: env.TWILIO_TWIML_APP_SID!,
            },
          }
        : {
            provider: 'simulator',
            timeScale: env.SIMULATOR_TIME_SCALE,
            smsLogFile: env.SIMULATOR_SMS_LOG ?? null,
          },
    ...(env.DEFAULT_CALLER_ID !== undefined && { defaultCallerId: env.DEFAULT_CALLER_ID }),
  });

  let closing = false;
  /** A graceful close is bounded (app.ts); this is the last resort if something still holds the process. */
  const SHUTDOWN_DEADLINE_MS = 20_000;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    setTimeout(() => {
      app.log.error('shutdown took longer than 20 s; exiting now');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    await app.close().catch((error: unknown) => app.log.error({ err: error }, 'error while closing'));
    await embedded?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: env.PORT, host: env.HOST });
  app.log.info(`CallCRM is running at ${publicUrl}`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('CallCRM could not start:', error);
  }
  process.exit(1);
});
