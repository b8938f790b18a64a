import type { DbExecutor } from '../../db/database.ts';

const SHOWN = [
  'destination',
  'events',
  'connected_at',
  'last_sent_at',
  'last_error',
  'last_error_at',
] as const;

/** The user's Slack connection as the card shows it, and the sealed address the posts go to. */
export async function findSlackConnection(db: DbExecutor, userId: string) {
  return db
    .selectFrom('slack_connections')
    .select([...SHOWN, 'webhook_url_sealed'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Connects, or changes the events (and, when given, the address: the last error goes with the old one). */
export async function saveSlackConnection(
  db: DbExecutor,
  userId: string,
  settings: { events: string[]; address?: { sealed: string; destination: string } },
  now: Date,
): Promise<boolean> {
  if (!settings.address) {
    const result = await db
      .updateTable('slack_connections')
      .set({ events: settings.events })
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
  const address = {
    webhook_url_sealed: settings.address.sealed,
    destination: settings.address.destination,
    events: settings.events,
    connected_at: now,
  };
  await db
    .insertInto('slack_connections')
    .values({ user_id: userId, ...address })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet({ ...address, last_sent_at: null, last_error: null, last_error_at: null }),
    )
    .execute();
  return true;
}

export async function deleteSlackConnection(db: DbExecutor, userId: string): Promise<void> {
  await db.deleteFrom('slack_connections').where('user_id', '=', userId).execute();
}

/** Records how a post went: sent clears the last error; a failure keeps Slack's words. */
export async function recordSlackOutcome(
  db: DbExecutor,
  userId: string,
  outcome: { sentAt: Date } | { error: string; at: Date },
): Promise<void> {
  await db
    .updateTable('slack_connections')
    .set(
      'sentAt' in outcome
        ? { last_sent_at: outcome.sentAt, last_error: null, last_error_at: null }
        : { last_error: outcome.error.slice(0, 500), last_error_at: outcome.at },
    )
    .where('user_id', '=', userId)
    .execute();
}

/** A notification a post is about (campaign finished or paused, missed call). */
export async function findNoticeForSlack(db: DbExecutor, userId: string, notificationId: string) {
  return db
    .selectFrom('notifications')
    .select(['title', 'body', 'link'])
    .where('id', '=', notificationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** A qualified disposition with its contact, for the post about it. */
export async function findQualifiedLeadForSlack(db: DbExecutor, userId: string, dispositionId: string) {
  return db
    .selectFrom('call_dispositions as d')
    .innerJoin('contacts as c', 'c.id', 'd.contact_id')
    .select([
      'c.id as contact_id',
      'c.first_name',
      'c.last_name',
      'c.company',
      'c.phone',
      'c.email',
      'd.notes',
    ])
    .where('d.id', '=', dispositionId)
    .where('d.user_id', '=', userId)
    .executeTakeFirst();
}
