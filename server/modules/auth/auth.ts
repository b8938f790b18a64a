import { randomUUID } from 'node:crypto';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { betterAuth } from 'better-auth';
import { APIError } from 'better-auth/api';
import { DEACTIVATED_MESSAGE, DENIED_MESSAGE } from '#domain/auth/auth-messages.ts';
import { splitFullName } from '#domain/text/person-name.ts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '#domain/auth/credentials.schema.ts';
import { withActor, type Db } from '../../db/database.ts';
import type { SystemMailer } from '../../mail/system-mail.ts';
import { ensureProfile, findProfile } from '../profiles/public.ts';
import { ensureDefaultQueue } from '../queues/public.ts';
import { hashPassword, verifyPassword } from './password-hashing.ts';

export const AUTH_BASE_PATH = '/api/auth';
export const SESSION_COOKIE_PREFIX = 'callcrm';
const SESSION_DAYS = 7;

/** While set, a requested password-reset link is handed back to the caller (an admin) instead of being mailed. */
export const resetLinkCapture = new AsyncLocalStorage<{ token: string | null }>();

export type AuthOptions = {
  db: Db;
  secret: string;
  publicUrl: string;
  trustedOrigins: (request: Request | undefined) => string[];
  adminEmail: string | undefined;
  mailer: SystemMailer;
  log: FastifyBaseLogger;
};

/**
 * better-auth handles sign-up, sign-in, sessions (httpOnly cookies, stored in PostgreSQL) and password resets.
 * Our parts: argon2id hashing, snake_case tables, the profile (first account → admin) and the default call queue
 * created with each account, and refusing sessions to denied or deactivated accounts
 * (docs/decisions/004-authentication.md).
 */
export function createAuth(options: AuthOptions) {
  return betterAuth({
    appName: 'CallCRM',
    baseURL: options.publicUrl,
    basePath: AUTH_BASE_PATH,
    secret: options.secret,
    database: { db: options.db, type: 'postgres' },
    telemetry: { enabled: false },
    // Into our structured logs (and LOG_LEVEL), not straight to the console.
    logger: {
      level: 'info',
      log: (level, message, ...args) => options.log[level]({ component: 'better-auth', args }, message),
    },
    // Sign-in limits live in our own table (per IP and per account): see auth-attempts.repository.ts.
    rateLimit: { enabled: false },
    trustedOrigins: (request) => options.trustedOrigins(request),
    advanced: {
      database: { generateId: () => randomUUID() },
      cookiePrefix: SESSION_COOKIE_PREFIX,
      useSecureCookies: options.publicUrl.startsWith('https://'),
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
    },
    user: {
      modelName: 'auth_users',
      fields: { emailVerified: 'email_verified', createdAt: 'created_at', updatedAt: 'updated_at' },
    },
    session: {
      modelName: 'auth_sessions',
      expiresIn: SESSION_DAYS * 24 * 60 * 60,
      updateAge: 24 * 60 * 60,
      fields: {
        expiresAt: 'expires_at',
        ipAddress: 'ip_address',
        userAgent: 'user_agent',
        userId: 'user_id',
        createdAt: 'created_at',
        updatedAt: 'updated_at',
      },
    },
    account: {
      modelName: 'auth_accounts',
      fields: {
        accountId: 'account_id',
        providerId: 'provider_id',
        userId: 'user_id',
        accessToken: 'access_token',
        refreshToken: 'refresh_token',
        idToken: 'id_token',
        accessTokenExpiresAt: 'access_token_expires_at',
        refreshTokenExpiresAt: 'refresh_token_expires_at',
        createdAt: 'created_at',
        updatedAt: 'updated_at',
      },
    },
    verification: {
      modelName: 'auth_verifications',
      fields: { expiresAt: 'expires_at', createdAt: 'created_at', updatedAt: 'updated_at' },
    },
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      password: { hash: hashPassword, verify: verifyPassword },
      sendResetPassword: async ({ user, token }) => {
        const capture = resetLinkCapture.getStore();
        if (capture) {
          capture.token = token;
          return;
        }
        const link = `${options.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
        await options.mailer.send({
          kind: 'password-reset',
          to: user.email,
          subject: 'Reset your CallCRM password',
          text: `Someone asked to reset the password of your CallCRM account.\n\nSet a new password here (valid for 1 hour):\n${link}\n\nIf it was not you, ignore this message.`,
        });
      },
    },
    databaseHooks: {
      user: {
        create: {
          after: async (user) => {
            await withActor(options.db, { kind: 'system' }, (trx) =>
              ensureProfile(
                trx,
                { id: user.id, email: user.email, ...splitFullName(user.name ?? '') },
                options.adminEmail,
              ),
            );
            // The default call queue comes with the account, so listing queues only ever reads (decision 058).
            await withActor(options.db, { kind: 'user', userId: user.id }, (trx) =>
              ensureDefaultQueue(trx, user.id),
            );
          },
        },
      },
      session: {
        create: {
          before: async (session) => {
            const profile = await withActor(options.db, { kind: 'system' }, (trx) =>
              findProfile(trx, session.userId),
            );
            if (profile?.role === 'denied')
              throw new APIError('FORBIDDEN', { message: DENIED_MESSAGE, code: 'ACCOUNT_DENIED' });
            if (profile?.deactivated) {
              throw new APIError('FORBIDDEN', { message: DEACTIVATED_MESSAGE, code: 'ACCOUNT_DEACTIVATED' });
            }
          },
        },
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
