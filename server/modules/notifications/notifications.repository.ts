import { sql } from 'kysely';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  type Notification,
  type NotificationKind,
  type NotificationSettings,
} from '#domain/notifications/notification.schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import { afterKeyset, keysetPosition, pageOf } from '../../db/keyset.ts';

export async function findNotificationSettings(
  db: DbExecutor,
  userId: string,
): Promise<NotificationSettings> {
  const row = await db
    .selectFrom('notification_settings')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return DEFAULT_NOTIFICATION_SETTINGS;
  return {
    callbacksApp: row.callbacks_app,
    callbacksEmail: row.callbacks_email,
    campaignsApp: row.campaigns_app,
    campaignsEmail: row.campaigns_email,
    signupsApp: row.signups_app,
    signupsEmail: row.signups_email,
    missedCallsApp: row.missed_calls_app,
    missedCallsEmail: row.missed_calls_email,
    integrationsApp: row.integrations_app,
    integrationsEmail: row.integrations_email,
  };
}

export async function saveNotificationSettings(
  db: DbExecutor,
  userId: string,
  s: NotificationSettings,
): Promise<void> {
  const values = {
    callbacks_app: s.callbacksApp,
    callbacks_email: s.callbacksEmail,
    campaigns_app: s.campaignsApp,
    campaigns_email: s.campaignsEmail,
    signups_app: s.signupsApp,
    signups_email: s.signupsEmail,
    missed_calls_app: s.missedCallsApp,
    missed_calls_email: s.missedCallsEmail,
    integrations_app: s.integrationsApp,
    integrations_email: s.integrationsEmail,
    updated_at: new Date(),
  };
  await db
    .insertInto('notification_settings')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
}

/** The user's notifications, newest first, page by page; and how many are unread. */
export async function findNotifications(
  db: DbExecutor,
  userId: string,
  page: { after?: string | undefined; limit: number },
): Promise<{ notifications: Notification[]; unread: number; next: string | null }> {
  let query = db
    .selectFrom('notifications')
    .select(['id', 'kind', 'title', 'body', 'link', 'created_at', 'read_at'])
    .select(keysetPosition('created_at', 'id').as('position'))
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  if (page.after) query = query.where(afterKeyset('created_at', 'id', page.after));
  const rows = await query.execute();
  const { unread } = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<string>().as('unread'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  const { shown, next } = pageOf(rows, page.limit);
  return {
    notifications: shown.map((r) => ({
      id: r.id,
      kind: r.kind,
      title: r.title,
      body: r.body,
      link: r.link,
      createdAt: r.created_at.toISOString(),
      read: r.read_at !== null,
    })),
    unread: Number(unread),
    next,
  };
}

/** Marks the given notifications of the user (all of them when no ids) as read. */
export async function markNotificationsRead(
  db: DbExecutor,
  userId: string,
  ids: string[] | undefined,
  now: Date,
): Promise<void> {
  let query = db
    .updateTable('notifications')
    .set({ read_at: now })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null);
  if (ids) {
    if (ids.length === 0) return;
    query = query.where('id', 'in', ids);
  }
  await query.execute();
}

/**
 * Makes a notification through notify_user (migration 0023), the one way one is made: it honours the user's
 * settings, makes it once per (user, kind, subject) whatever the retries, and queues its e-mail. Returns its id, or
 * null when nothing was made (turned off, or made before).
 */
export async function notifyUser(
  db: DbExecutor,
  notice: {
    userId: string;
    kind: NotificationKind;
    subject: string;
    title: string;
    body: string;
    link: string;
  },
): Promise<string | null> {
  const { rows } = await sql<{ made: string | null }>`
    select notify_user(${notice.userId}::uuid, ${notice.kind}, ${notice.subject}, ${notice.title}, ${notice.body},
      ${notice.link}) as made`.execute(db);
  return rows[0]?.made ?? null;
}

/**
 * Marks a notification e-mailed, if it was not yet (at most once, whatever the retries), and returns what its
 * e-mail needs, with its user's address and whether the account is still active.
 */
export async function claimNotificationEmail(db: DbExecutor, id: string, now: Date) {
  return db
    .updateTable('notifications as n')
    .set({ emailed_at: now })
    .from('user_profiles as p')
    .whereRef('p.id', '=', 'n.user_id')
    .where('n.id', '=', id)
    .where('n.emailed_at', 'is', null)
    .returning([
      'n.user_id',
      'n.kind',
      'n.title',
      'n.body',
      'n.link',
      'p.email',
      'p.deactivated_at',
      'p.role',
    ])
    .executeTakeFirst();
}
