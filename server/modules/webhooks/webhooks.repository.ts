import { sql } from 'kysely';
import type { DbExecutor } from '../../db/database.ts';

const ENDPOINT = [
  'id',
  'url',
  'description',
  'events',
  'enabled',
  'disabled_reason',
  'failing_since',
  'created_at',
] as const;

export async function listEndpoints(db: DbExecutor, userId: string) {
  return db
    .selectFrom('webhook_endpoints')
    .select(ENDPOINT)
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findEndpoint(db: DbExecutor, userId: string, id: string) {
  return db
    .selectFrom('webhook_endpoints')
    .select([...ENDPOINT, 'secret_sealed'])
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Until the transaction ends, no other request adds an endpoint for this user. */
export async function lockEndpointsOf(db: DbExecutor, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`webhooks:${userId}`}, 0))`.execute(db);
}

export async function countEndpoints(db: DbExecutor, userId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertEndpoint(
  db: DbExecutor,
  endpoint: { userId: string; url: string; description: string; events: string[]; secretSealed: string },
  now: Date,
) {
  return db
    .insertInto('webhook_endpoints')
    .values({
      user_id: endpoint.userId,
      url: endpoint.url,
      description: endpoint.description,
      events: endpoint.events,
      secret_sealed: endpoint.secretSealed,
      created_at: now,
    })
    .returning(ENDPOINT)
    .executeTakeFirstOrThrow();
}

/** Changes an endpoint; turned back on, it forgets why it was off and how long it had failed. */
export async function updateEndpoint(
  db: DbExecutor,
  userId: string,
  id: string,
  change: { url?: string; description?: string; events?: string[]; enabled?: boolean },
) {
  const set = {
    ...(change.url !== undefined && { url: change.url }),
    ...(change.description !== undefined && { description: change.description }),
    ...(change.events !== undefined && { events: change.events }),
    ...(change.enabled !== undefined && { enabled: change.enabled }),
    ...(change.enabled === true && { disabled_reason: null, failing_since: null }),
  };
  // Nothing to change: the endpoint as it is.
  if (Object.keys(set).length === 0)
    return db
      .selectFrom('webhook_endpoints')
      .select(ENDPOINT)
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  return db
    .updateTable('webhook_endpoints')
    .set(set)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .returning(ENDPOINT)
    .executeTakeFirst();
}

export async function deleteEndpoint(db: DbExecutor, userId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('webhook_endpoints')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

const DELIVERY = [
  'id',
  'type',
  'status',
  'attempts',
  'event_at',
  'due_at',
  'last_status',
  'last_error',
  'last_attempt_at',
  'delivered_at',
  'sequence',
] as const;

/** A page of an endpoint's delivery log, newest first (by the endpoint's sequence). */
export async function listDeliveries(
  db: DbExecutor,
  userId: string,
  endpointId: string,
  page: { before?: string | undefined; limit: number },
) {
  let query = db
    .selectFrom('webhook_deliveries')
    .select(DELIVERY)
    .where('user_id', '=', userId)
    .where('endpoint_id', '=', endpointId)
    .orderBy('sequence', 'desc')
    .limit(page.limit + 1);
  if (page.before) query = query.where('sequence', '<', page.before);
  return query.execute();
}

/**
 * Deletes up to `limit` deliveries done with (delivered or failed) whose event, or last redelivery, came before
 * `before` (the system's job). The status and time are checked again on the row deleted: a delivery its owner sends
 * again while this runs is pending by then, and stays.
 */
export async function deleteSettledDeliveries(db: DbExecutor, before: Date, limit: number): Promise<number> {
  const result = await sql`
    delete from webhook_deliveries
    where id in (select id from webhook_deliveries where status <> 'pending' and event_at < ${before} limit ${limit})
      and status <> 'pending' and event_at < ${before}`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/**
 * Deletes up to `limit` events from before `before` that no delivery names any more (their deliveries pruned, or their
 * endpoint deleted). No delivery is made for an event after the transaction that stored it, so one found unnamed
 * stays unnamed (migration 0056).
 */
export async function deleteUnnamedEvents(db: DbExecutor, before: Date, limit: number): Promise<number> {
  const result = await sql`
    delete from webhook_events where id in (
      select e.id from webhook_events e
      where e.event_at < ${before} and not exists (select 1 from webhook_deliveries d where d.event_id = e.id)
      limit ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** A failed (or delivered) delivery goes again, with the same id, as soon as its endpoint's job runs. */
export async function redeliver(db: DbExecutor, userId: string, deliveryId: string, now: Date) {
  return db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', due_at: now, attempts: 0, event_at: now })
    .where('user_id', '=', userId)
    .where('id', '=', deliveryId)
    .where('status', '<>', 'pending')
    .returning(['endpoint_id'])
    .executeTakeFirst();
}

/**
 * The delivery job's hold on one endpoint: a transaction-level lock, so two workers never deliver for the same
 * endpoint at once (its contacts' order would break). False when another worker has it.
 */
/**
 * Takes the endpoint's delivery lock for this connection's session (false when another worker holds it). A session
 * lock, not a transaction's: each group of deliveries commits on its own while the lock is held, and PostgreSQL frees
 * it when the connection ends, as when the process is killed.
 */
export async function tryLockEndpoint(db: DbExecutor, endpointId: string): Promise<boolean> {
  const { rows } = await sql<{
    locked: boolean;
  }>`select pg_try_advisory_lock(hashtextextended(${`webhook-deliver:${endpointId}`}, 0)) as locked`.execute(
    db,
  );
  return rows[0]?.locked ?? false;
}

export async function unlockEndpoint(db: DbExecutor, endpointId: string): Promise<void> {
  await sql`select pg_advisory_unlock(hashtextextended(${`webhook-deliver:${endpointId}`}, 0))`.execute(db);
}

/** The endpoint as its delivery job sees it (the system actor: the job has no session). */
export async function findEndpointForDelivery(db: DbExecutor, endpointId: string) {
  return db
    .selectFrom('webhook_endpoints')
    .select(['id', 'user_id', 'url', 'description', 'secret_sealed', 'enabled', 'failing_since'])
    .where('id', '=', endpointId)
    .executeTakeFirst();
}

/**
 * The endpoint's pending deliveries, oldest first, at most `limit`, each with its event's payload as the text to send
 * (null if its event is gone, which retention never does to an event a delivery names); none once the endpoint is
 * turned off (its owner may turn it off while its deliveries are being sent). Read in a delivery transaction
 * (`inDeliveryTransaction`).
 */
export async function pendingDeliveries(db: DbExecutor, endpointId: string, limit: number) {
  return db
    .selectFrom('webhook_deliveries as d')
    .leftJoin('webhook_events as e', 'e.id', 'd.event_id')
    .select([
      'd.id',
      'd.order_key',
      'd.sequence',
      'd.due_at',
      'd.event_at',
      'd.attempts',
      sql<string | null>`e.payload::text`.as('body'),
    ])
    .where('d.endpoint_id', '=', endpointId)
    .where('d.status', '=', 'pending')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('webhook_endpoints')
          .select('id')
          .where('id', '=', endpointId)
          .where('enabled', '=', true),
      ),
    )
    .orderBy('d.sequence')
    .limit(limit)
    .execute();
}

export type AttemptOutcome = {
  id: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  dueAt: Date;
  lastStatus: number | null;
  lastError: string | null;
  at: Date;
};

/**
 * Records the outcomes of a group of attempts in one statement, in a delivery transaction (`inDeliveryTransaction`):
 * an outcome lost in a database crash only means that delivery is sent again, with the same id (at least once).
 */
export async function recordAttempts(db: DbExecutor, outcomes: readonly AttemptOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const rows = outcomes.map(
    (o) =>
      sql`(${o.id}, ${o.status}, ${o.attempts}::int, ${o.dueAt}::timestamptz, ${o.lastStatus}::int, ${
        o.lastError?.slice(0, 500) ?? null
      }, ${o.at}::timestamptz)`,
  );
  await sql`
    update webhook_deliveries d set status = v.status, attempts = v.attempts, due_at = v.due_at,
      last_status = v.last_status, last_error = v.last_error, last_attempt_at = v.at,
      delivered_at = case when v.status = 'delivered' then v.at else d.delivered_at end
    from (values ${sql.join(rows)}) as v (id, status, attempts, due_at, last_status, last_error, at)
    where d.id = v.id`.execute(db);
}

export async function markEndpointHealth(
  db: DbExecutor,
  endpointId: string,
  health: { failingSince: Date | null; disabledReason?: string },
): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({
      failing_since: health.failingSince,
      ...(health.disabledReason && { enabled: false, disabled_reason: health.disabledReason }),
    })
    .where('id', '=', endpointId)
    .execute();
}

/** Enabled endpoints that have pending deliveries and no delivery job (new deliveries, or a job lost in a crash). */
export async function endpointsWithoutJob(db: DbExecutor): Promise<string[]> {
  // The endpoints with pending deliveries, one index probe each (a skip scan of the pending index), however many
  // deliveries wait: looked for several times a second.
  const { rows } = await sql<{ id: string }>`
    with recursive pending (endpoint_id) as (
      (select d.endpoint_id from webhook_deliveries d where d.status = 'pending' order by d.endpoint_id limit 1)
      union all
      select (select d.endpoint_id from webhook_deliveries d
              where d.status = 'pending' and d.endpoint_id > p.endpoint_id order by d.endpoint_id limit 1)
      from pending p where p.endpoint_id is not null
    )
    select w.id from pending p join webhook_endpoints w on w.id = p.endpoint_id
    where w.enabled
      and not exists (select 1 from graphile_worker._private_jobs j where j.key = 'webhook-deliver:' || w.id)`.execute(
    db,
  );
  return rows.map((r) => r.id);
}

/**
 * Of these endpoints, those whose delivery job is waiting to run now (queued, due, not yet taken): it will read what
 * was committed before it starts, so nothing more need be queued for a new delivery.
 */
export async function deliveryJobsWaiting(db: DbExecutor, endpointIds: string[]): Promise<Set<string>> {
  const keys = endpointIds.map((id) => `webhook-deliver:${id}`);
  const { rows } = await sql<{ key: string }>`
    select j.key from graphile_worker._private_jobs j
    where j.key = any(${keys}::text[]) and j.locked_at is null and j.run_at <= now()`.execute(db);
  return new Set(rows.map((r) => r.key.slice('webhook-deliver:'.length)));
}

/**
 * This transaction's commit does not wait for the write-ahead log to reach the disk. For writes a crash may lose
 * harmlessly: a delivery outcome (the delivery is sent again, same id) or a job queued (the sweep queues it again).
 * A commit that queues a job sends a notice, and PostgreSQL commits noticing transactions one at a time: waiting
 * for the disk there would hold every other one up.
 */
export async function commitWithoutWaitingForDisk(db: DbExecutor): Promise<void> {
  await sql`set local synchronous_commit = off`.execute(db);
}

/**
 * The settings of a delivery job's transaction, in one statement. Its commit does not wait for the disk
 * (`commitWithoutWaitingForDisk`: an outcome lost in a crash only sends that delivery again, with the same id). And
 * it reads pending deliveries by index scan, never by bitmap: each delivered row leaves a dead entry in the pending
 * index until a vacuum, and an index scan marks the entries it finds dead so that later reads skip them, where a
 * bitmap scan (which the planner picks when its statistics say few are pending) visits every dead row's table page
 * again on every read: at 1,000 deliveries a second, 2,000 pages a read (decision 035).
 */
export async function inDeliveryTransaction(db: DbExecutor): Promise<void> {
  await sql`select set_config('synchronous_commit', 'off', true), set_config('enable_bitmapscan', 'off', true)`.execute(
    db,
  );
}
