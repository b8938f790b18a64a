import {
  decideSignInAttempt,
  SIGN_IN_MAX_FAILURES_PER_ACCOUNT,
  SIGN_IN_MAX_FAILURES_PER_IP,
  SIGN_IN_WINDOW_MS,
  type RateLimitDecision,
} from '#domain/auth/sign-in-rate-limit.ts';
import type { Db } from '../../db/database.ts';

/** Failed sign-ins per IP and per account, kept in PostgreSQL so the limit holds across server instances. */
export async function checkSignInAllowed(
  db: Db,
  input: { ip: string; email: string; now: Date },
): Promise<RateLimitDecision> {
  const since = new Date(input.now.getTime() - SIGN_IN_WINDOW_MS);
  const [byAccount, byIp] = await Promise.all([
    failureTimes(db, 'email', input.email, since, SIGN_IN_MAX_FAILURES_PER_ACCOUNT),
    failureTimes(db, 'ip', input.ip, since, SIGN_IN_MAX_FAILURES_PER_IP),
  ]);
  const now = input.now.getTime();
  const account = decideSignInAttempt(byAccount, SIGN_IN_MAX_FAILURES_PER_ACCOUNT, now);
  const ip = decideSignInAttempt(byIp, SIGN_IN_MAX_FAILURES_PER_IP, now);
  if (!account.allowed && !ip.allowed) {
    return { allowed: false, retryAfterSeconds: Math.max(account.retryAfterSeconds, ip.retryAfterSeconds) };
  }
  return account.allowed ? ip : account;
}

async function failureTimes(
  db: Db,
  column: 'email' | 'ip',
  value: string,
  since: Date,
  max: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('sign_in_attempts')
    .select('attempted_at')
    .where(column, '=', value)
    .where('succeeded', '=', false)
    .where('attempted_at', '>', since)
    .orderBy('attempted_at', 'desc')
    .limit(max)
    .execute();
  return rows.map((r) => r.attempted_at.getTime());
}

/** A success clears the account's earlier failures, so a person who remembers their password is not locked later. */
export async function recordSignInAttempt(
  db: Db,
  input: { ip: string; email: string; succeeded: boolean; now: Date },
): Promise<void> {
  if (input.succeeded) {
    await db.deleteFrom('sign_in_attempts').where('email', '=', input.email).execute();
    return;
  }
  await db
    .insertInto('sign_in_attempts')
    .values({ ip: input.ip, email: input.email, succeeded: false, attempted_at: input.now })
    .execute();
}

export async function pruneSignInAttempts(db: Db, now: Date): Promise<void> {
  await db
    .deleteFrom('sign_in_attempts')
    .where('attempted_at', '<', new Date(now.getTime() - SIGN_IN_WINDOW_MS))
    .execute();
}
