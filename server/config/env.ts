import { z } from 'zod';
import { TelephonyProviderNameSchema } from '#domain/calls/call-status.ts';
import { DEFAULT_API_KEY_REQUESTS_PER_MINUTE } from '#domain/api-keys/api-key.ts';

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

/** Comma-separated host names or *.domain wildcards; unset or empty: null. */
const hostList = z
  .string()
  .optional()
  .transform((v) =>
    v && v.trim()
      ? v
          .split(',')
          .map((h) => h.trim())
          .filter(Boolean)
      : null,
  )
  .pipe(
    z
      .array(z.string().regex(/^(\*\.)?[A-Za-z0-9.-]+$/, 'must be host names or *.domain wildcards'))
      .nullable(),
  );

/**
 * Which proxies to believe about the client's address and scheme (X-Forwarded-For, -Proto, -Host): none (false);
 * `true`, or a number of hops, trusts that many proxies in front of the server, so the client address is the one
 * the outermost trusted proxy saw (never the left-most, client-supplied entry); or a comma-separated list of proxy
 * addresses and CIDR ranges (or proxy-addr's names loopback, linklocal, uniquelocal).
 */
const TrustProxySchema = z
  .string()
  .trim()
  .optional()
  .transform((v, ctx): false | number | string[] => {
    if (v === undefined || v === '' || v === 'false' || v === '0') return false;
    if (v === 'true') return 1;
    if (/^\d{1,2}$/.test(v)) return Number(v);
    const entries = v.split(',').map((e) => e.trim());
    const valid = entries.every((e) =>
      /^(loopback|linklocal|uniquelocal|[0-9.]+(\/\d{1,2})?|[0-9a-fA-F:]+(\/\d{1,3})?)$/.test(e),
    );
    if (!valid) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be true, false, a number of proxy hops, or proxy addresses',
      });
      return z.NEVER;
    }
    return entries;
  });

/**
 * Every environment variable the server reads, validated once at start-up (README "Configuration").
 * A bad value stops the server with a message naming the key.
 */
export const EnvSchema = z.object({
  NODE_ENV: z.enum(['production', 'development', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DATA_DIR: z.string().default('./data'),
  /** Where recordings and greetings are stored on disk; DATA_DIR/files when unset. */
  FILES_DIR: z.string().optional(),
  /** An S3-compatible bucket to store them in instead (decision 029): the disk is then not used for them. */
  FILES_S3_BUCKET: optionalString,
  /** The store's URL, for anything but AWS itself (MinIO, R2, B2, …). */
  FILES_S3_ENDPOINT: z
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  FILES_S3_REGION: z.string().trim().min(1).default('us-east-1'),
  FILES_S3_ACCESS_KEY_ID: optionalString,
  FILES_S3_SECRET_ACCESS_KEY: optionalString,
  /** Path-style URLs (endpoint/bucket/key): on by default with an endpoint, which most S3-compatible stores need. */
  FILES_S3_PATH_STYLE: z.enum(['true', 'false']).optional(),
  DATABASE_URL: z
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DATABASE_APP_URL: z
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** A streaming replica for report reads (decision 040); without a user, the app's role and password are used. */
  DATABASE_REPLICA_URL: z
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DATABASE_APP_ROLE: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier')
    .default('callcrm_app'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  DATABASE_PREPARED_STATEMENTS: z.enum(['on', 'off']).default('on'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65535).default(54329),
  ADMIN_EMAIL: z
    .email()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SESSION_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  TRUSTED_ORIGINS: optionalString,
  TRUST_PROXY: TrustProxySchema,
  SYSTEM_SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/.+/, 'must look like smtp://user:pass@host:587 or smtps://user:pass@host:465')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SYSTEM_MAIL_FROM: optionalString,
  ENCRYPTION_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64-encoded')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SMTP_CA_FILE: optionalString,
  /** Mail servers users may configure, comma-separated names or *.domain wildcards; unset: any. */
  SMTP_ALLOWED_HOSTS: hostList,
  /** Hosts on private or local networks that users' outgoing webhooks (Slack) may reach, and over plain http. */
  WEBHOOK_ALLOWED_HOSTS: hostList,
  /** HubSpot's API (decision 036); another address only to test against a local fake. */
  HUBSPOT_API_URL: z.url().default('https://api.hubapi.com'),
  /** Salesforce's connected app (decision 037): its consumer key and secret; unset, nobody here can connect. */
  SALESFORCE_CLIENT_ID: optionalString,
  SALESFORCE_CLIENT_SECRET: optionalString,
  /** Where users sign in to Salesforce: https://test.salesforce.com for sandboxes, or the org's My Domain. */
  SALESFORCE_LOGIN_URL: z.url().default('https://login.salesforce.com'),
  /**
   * Whether this instance runs background jobs (campaign sends, bulk calls, webhooks, syncs). Off on instances that
   * only answer users, so requests never wait behind that work; at least one instance must keep it on (decision 046).
   */
  BACKGROUND_JOBS: z.enum(['on', 'off']).default('on'),
  /** Log each request slower than this many milliseconds with where its time went; unset, none is. */
  SLOW_REQUEST_LOG_MS: z.coerce.number().int().min(1).max(600_000).optional(),
  IMPORT_MAX_MB: z.coerce.number().int().min(1).max(10_000).default(200),
  /** Requests one personal API key may make per minute (decision 033). */
  API_KEY_REQUESTS_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(DEFAULT_API_KEY_REQUESTS_PER_MINUTE),
  TELEPHONY_PROVIDER: TelephonyProviderNameSchema.default('simulator'),
  TWILIO_ACCOUNT_SID: z
    .string()
    .regex(/^AC[0-9a-f]{32}$/, 'must look like AC followed by 32 hex digits')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  TWILIO_AUTH_TOKEN: optionalString,
  TWILIO_API_KEY_SID: z
    .string()
    .regex(/^SK[0-9a-f]{32}$/, 'must look like SK followed by 32 hex digits')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  TWILIO_API_KEY_SECRET: optionalString,
  TWILIO_TWIML_APP_SID: z
    .string()
    .regex(/^AP[0-9a-f]{32}$/, 'must look like AP followed by 32 hex digits')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SIMULATOR_TIME_SCALE: z.coerce.number().min(0.001).max(100).default(1),
  /** A file the simulator appends every text message it accepts to (drills count what the "provider" received). */
  SIMULATOR_SMS_LOG: z.string().min(1).optional(),
  DEFAULT_CALLER_ID: z
    .string()
    .regex(/^\+?[\d\s().-]{7,20}$/, 'must be a phone number')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});
/** Twilio needs every credential, and a public URL its webhooks can reach (they are signed over it). */
const TWILIO_KEYS = [
  'TWILIO_ACCOUNT_SID',
  'TWILIO_AUTH_TOKEN',
  'TWILIO_API_KEY_SID',
  'TWILIO_API_KEY_SECRET',
  'TWILIO_TWIML_APP_SID',
  'PUBLIC_URL',
] as const;
const CheckedEnvSchema = EnvSchema.superRefine((env, check) => {
  // Keys go in pairs; without either, the AWS SDK's own chain (environment, instance role) is used.
  if (Boolean(env.FILES_S3_ACCESS_KEY_ID) !== Boolean(env.FILES_S3_SECRET_ACCESS_KEY))
    check.addIssue({
      code: 'custom',
      path: [env.FILES_S3_ACCESS_KEY_ID ? 'FILES_S3_SECRET_ACCESS_KEY' : 'FILES_S3_ACCESS_KEY_ID'],
      message: 'is required with the other FILES_S3 key',
    });
  if (env.TELEPHONY_PROVIDER !== 'twilio') return;
  for (const key of TWILIO_KEYS)
    if (!env[key])
      check.addIssue({ code: 'custom', path: [key], message: 'is required when TELEPHONY_PROVIDER=twilio' });
});
export type Env = z.infer<typeof EnvSchema>;

export class ConfigError extends Error {}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = CheckedEnvSchema.safeParse(source);
  if (result.success) return result.data;
  const lines = result.error.issues.map(
    (i) => `  ${i.path.join('.')}: ${i.message} (got ${JSON.stringify(source[String(i.path[0])])})`,
  );
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}
