import { sql } from 'kysely';
import type { AttemptHistory, ThrottleDecision } from '#domain/auth/auth-throttle.ts';
import type { Db, DbExecutor } from '../../db/database.ts';

export type { AttemptKind } from '#domain/auth/auth-throttle.ts';
import type { AttemptKind } from '#domain/auth/auth-throttle.ts';

/** Who attempts what: the account (an e-mail, or a user id), the client (a known browser or an IP), the IP. */
export type AttemptKey = {
  kind: AttemptKind;
  account: string;
  client: string;
  ip: string;
  knownDevice: boolean;
};

/** How many recorded attempts of each list the rules may need (more never change a decision). */
const READ_LIMIT = 200;

/**
 * Records an attempt before it runs, if the rules allow one more (domain/auth/auth-throttle.ts). Reading the
 * attempts and recording this one happen under transaction locks on the account and the IP, so attempts made at
 * the same moment are decided one after the other, each seeing those before it: a burst of parallel guesses cannot
 * all be let through on the same stale count. The attempt stays 'pending' (counted) until settled.
 */
export async function reserveAttempt(
  db: Db,
  key: AttemptKey,
  windowMs: number,
  decide: (history: AttemptHistory, now: number) => ThrottleDecision,
  now: Date,
): Promise<{ allowed: true; id: string } | { allowed: false; retryAfterSeconds: number }> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`auth:${key.kind}:${key.account}`}, 0))`.execute(
      trx,
    );
    await sql`select pg_advisory_xact_lock(hashtextextended(${`auth-ip:${key.kind}:${key.ip}`}, 0))`.execute(
      trx,
    );
    const [client, ip, account] = await readAttemptHistory(trx, key, new Date(now.getTime() - windowMs));
    const ms = (rows: { attempted_at: Date }[]) => rows.map((r) => r.attempted_at.getTime());
    const decision = decide(
      { client: ms(client), ip: ms(ip), account: ms(account), knownDevice: key.knownDevice },
      now.getTime(),
    );
    if (!decision.allowed) return decision;
    const row = await trx
      .insertInto('auth_attempts')
      .values({
        kind: key.kind,
        account: key.account,
        client: key.client,
        ip: key.ip,
        known_device: key.knownDevice,
        attempted_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { allowed: true as const, id: String(row.id) };
  });
}

/**
 * The attempts the rules read, newest first: this client's on this account, this IP's from unknown clients, and
 * this account's from unknown clients, each since `since` and not succeeded (each one index range).
 */
export async function readAttemptHistory(db: DbExecutor, key: AttemptKey, since: Date) {
  const counted = db
    .selectFrom('auth_attempts')
    .select('attempted_at')
    .where('kind', '=', key.kind)
    .where('outcome', '<>', 'succeeded')
    .where('attempted_at', '>', since)
    .orderBy('attempted_at', 'desc')
    .limit(READ_LIMIT);
  // One after another: a transaction's queries share one connection.
  const client = await counted.where('account', '=', key.account).where('client', '=', key.client).execute();
  const ip = await counted.where('ip', '=', key.ip).where('known_device', '=', false).execute();
  const account = await counted
    .where('account', '=', key.account)
    .where('known_device', '=', false)
    .execute();
  return [client, ip, account] as const;
}

/**
 * How a reserved attempt ended: a failure stays counted; a success clears the client's earlier failures; an attempt
 * that was no guess at all (a malformed request, a denied account) is forgotten.
 */
export async function settleAttempt(
  db: Db,
  id: string,
  outcome: 'failed' | 'succeeded' | 'void',
): Promise<void> {
  if (outcome === 'void') {
    await db.deleteFrom('auth_attempts').where('id', '=', id).execute();
    return;
  }
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('auth_attempts')
      .set({ outcome })
      .where('id', '=', id)
      .returning(['kind', 'account', 'client'])
      .executeTakeFirst();
    if (row && outcome === 'succeeded')
      await trx
        .deleteFrom('auth_attempts')
        .where('kind', '=', row.kind)
        .where('account', '=', row.account)
        .where('client', '=', row.client)
        .where('outcome', '<>', 'succeeded')
        .execute();
  });
}

export async function isKnownDevice(db: DbExecutor, account: string, deviceId: string): Promise<boolean> {
  const row = await db
    .selectFrom('known_devices')
    .select('device_id')
    .where('account', '=', account)
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function rememberDevice(
  db: DbExecutor,
  account: string,
  deviceId: string,
  now: Date,
): Promise<void> {
  await db
    .insertInto('known_devices')
    .values({ account, device_id: deviceId, last_seen_at: now })
    .onConflict((oc) => oc.columns(['account', 'device_id']).doUpdateSet({ last_seen_at: now }))
    .execute();
}

/** Attempts older than a day decide nothing any more; a browser unseen for a year is a stranger again. */
export async function pruneAuthAttempts(db: DbExecutor, now: Date): Promise<void> {
  await db
    .deleteFrom('auth_attempts')
    .where('attempted_at', '<', new Date(now.getTime() - 24 * 3600 * 1000))
    .execute();
  await db
    .deleteFrom('known_devices')
    .where('last_seen_at', '<', new Date(now.getTime() - 365 * 24 * 3600 * 1000))
    .execute();
}
