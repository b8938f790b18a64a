import { sql } from 'kysely';
import { DEFAULT_QUEUE_ID, DEFAULT_QUEUE_NAME } from '#domain/contacts/queue.schema.ts';
import type pg from 'pg';
import type { DbExecutor } from '../../db/database.ts';

/*
 * Contact sync: a synced contact is a member of its owner's default call queue, 'All Synced Contacts', from the
 * moment it is saved. The queues module owns every queue, this one included; a contact created anywhere joins it
 * through joinDefaultQueue (passed to the contacts module as ctx.joinDefaultQueue, since contacts cannot depend on
 * queues: queues depend on contacts).
 */

/**
 * The user's default queue 'All Synced Contacts', created when missing (contact sync). Read first: it exists for every
 * user who ever had a contact, and an insert that finds it would still take a row lock and stamp the transaction.
 */
export async function ensureDefaultQueue(db: DbExecutor, userId: string): Promise<string> {
  const existing = await findDefaultQueueId(db, userId);
  if (existing) return existing;
  await db
    .insertInto('power_dialer_queues')
    .values({ queue_id: DEFAULT_QUEUE_ID, queue_name: DEFAULT_QUEUE_NAME, user_id: userId })
    .onConflict((oc) => oc.columns(['user_id', 'queue_id']).doNothing())
    .execute();
  const created = await findDefaultQueueId(db, userId);
  if (!created) throw new Error('the default queue was neither found nor created');
  return created;
}

async function findDefaultQueueId(db: DbExecutor, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('power_dialer_queues')
    .select('id')
    .where('user_id', '=', userId)
    .where('queue_id', '=', DEFAULT_QUEUE_ID)
    .executeTakeFirst();
  return row?.id;
}

/**
 * Puts the user's synced contacts created since `since` that are missing from the default queue into it: repairs
 * an import that stopped before its queue step (the server was killed). Reads only recent contacts, by index.
 */
export async function queueMissingSyncedContacts(
  db: DbExecutor,
  userId: string,
  queueId: string,
  since: Date,
): Promise<number> {
  // One repair of a user's queue at a time: two inserting overlapping rows in different orders would deadlock.
  await sql`select pg_advisory_xact_lock(hashtext('queue-repair'), hashtext(${userId}))`.execute(db);
  const result = await sql`
    insert into queue_members (queue_id, contact_id, user_id)
    select ${queueId}, c.id, ${userId} from contacts c
    where c.user_id = ${userId} and c.synced and c.created_at >= ${since}
      and not exists (select 1 from queue_members m where m.queue_id = ${queueId} and m.contact_id = c.id)
    on conflict (queue_id, contact_id) do nothing`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Puts newly synced contacts in the user's default queue (created when missing); ids already there are ignored. */
export async function joinDefaultQueue(
  db: DbExecutor,
  userId: string,
  contactIds: readonly string[],
): Promise<void> {
  const queueId = await ensureDefaultQueue(db, userId);
  await sql`
    insert into queue_members (queue_id, contact_id, user_id)
    select ${queueId}, c.id, ${userId} from contacts c
    where c.user_id = ${userId} and c.id = any(${[...contactIds]}::uuid[])
    on conflict (queue_id, contact_id) do nothing`.execute(db);
}

/**
 * An import's batch (the contacts module's temporary table import_batch, in the caller's transaction): the existing
 * contacts its rows matched join the default queue (normally a no-op; it repairs an import interrupted before its
 * queue step, once the file is run again).
 */
export async function queueBatchMatches(
  client: pg.PoolClient,
  userId: string,
  queueId: string,
): Promise<void> {
  await client.query(
    `insert into queue_members (queue_id, contact_id, user_id)
     select $2, match_id, $1 from import_batch where match_id is not null
     on conflict (queue_id, contact_id) do nothing`,
    [userId, queueId],
  );
}

/**
 * The contacts an import created from rows [fromRow, toRow] join the default queue after the whole file, found by
 * the created_at their rows were given (the import's time minus a microsecond per row). Returns how many joined.
 */
export async function queueImportedRows(
  client: pg.PoolClient,
  userId: string,
  queueId: string,
  fromRow: number,
  toRow: number,
  at: Date,
): Promise<number> {
  const result = await client.query(
    `insert into queue_members (queue_id, contact_id, user_id)
     select $2, c.id, $1 from contacts c
     where c.user_id = $1 and c.synced
       and c.created_at between $5::timestamptz - make_interval(secs => $4 / 1000000.0)
                            and $5::timestamptz - make_interval(secs => $3 / 1000000.0)
     on conflict (queue_id, contact_id) do nothing`,
    [userId, queueId, fromRow, toRow, at],
  );
  return result.rowCount ?? 0;
}
