import type { SmsCampaign, SmsRecipient } from '#domain/campaigns/sms-campaign.schema.ts';
import { CAMPAIGN_MESSAGES } from '#domain/campaigns/email-campaign.schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import {
  countsOf,
  EMPTY_COUNTS,
  recipientName,
  recipientPage,
  withoutExtra,
  type StoredCounts,
} from './campaign-recipients.repository.ts';

const COLUMNS = [
  'id',
  'name',
  'status',
  'message',
  'per_minute',
  'project_id',
  'created_at',
  'started_at',
  'finished_at',
  'pause_reason',
] as const;

type Row = {
  id: string;
  name: string;
  status: SmsCampaign['status'];
  message: string;
  per_minute: number;
  project_id: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  pause_reason: string | null;
};

const toCampaign = (row: Row, counts: StoredCounts | undefined): SmsCampaign => ({
  id: row.id,
  name: row.name,
  status: row.status,
  message: row.message,
  perMinute: row.per_minute,
  projectId: row.project_id,
  createdAt: row.created_at.toISOString(),
  startedAt: row.started_at?.toISOString() ?? null,
  finishedAt: row.finished_at?.toISOString() ?? null,
  pauseReason: row.pause_reason,
  counts: counts ? withoutExtra(counts) : { ...EMPTY_COUNTS },
  delivered: counts?.extra.delivered ?? 0,
});

/** The user's SMS campaigns, newest first, each with its recipients' counts. */
export async function findSmsCampaigns(db: DbExecutor, userId: string): Promise<SmsCampaign[]> {
  const rows = await db
    .selectFrom('sms_campaigns')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .execute();
  const counts = await countsOf(
    db,
    'sms',
    rows.map((r) => r.id),
  );
  return rows.map((r) => toCampaign(r, counts.get(r.id)));
}

/** One SMS campaign of the user, or NOT_FOUND (another user's is not found). `lock` takes its row lock. */
export async function getSmsCampaign(
  db: DbExecutor,
  userId: string,
  id: string,
  options: { lock?: boolean } = {},
): Promise<SmsCampaign> {
  let query = db
    .selectFrom('sms_campaigns')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', CAMPAIGN_MESSAGES.notFound);
  return toCampaign(row, (await countsOf(db, 'sms', [id])).get(id));
}

type Fields = { name: string; message: string; perMinute: number; projectId: string | null };

export async function insertSmsCampaign(db: DbExecutor, userId: string, values: Fields): Promise<string> {
  const row = await db
    .insertInto('sms_campaigns')
    .values({
      user_id: userId,
      name: values.name,
      message: values.message,
      per_minute: values.perMinute,
      project_id: values.projectId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateSmsCampaign(
  db: DbExecutor,
  id: string,
  values: Fields,
  now: Date,
): Promise<void> {
  await db
    .updateTable('sms_campaigns')
    .set({
      name: values.name,
      message: values.message,
      per_minute: values.perMinute,
      project_id: values.projectId,
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

/** A page of an SMS campaign's recipients in send order, with state, delivery and reply (optionally one state). */
export async function findSmsRecipients(
  db: DbExecutor,
  campaignId: string,
  page: { after?: number | undefined; limit: number; state?: SmsRecipient['state'] | undefined },
): Promise<{ recipients: SmsRecipient[]; next: number | null }> {
  let query = db
    .selectFrom('sms_campaign_recipients as r')
    .leftJoin('contacts as c', 'c.id', 'r.contact_id')
    .select([
      'r.position',
      'r.contact_id',
      'r.phone as sent_to',
      'c.phone',
      'c.first_name',
      'c.last_name',
      'r.state',
      'r.reason',
      'r.delivery',
      'r.delivery_error',
      'r.sent_at',
      'r.reply',
    ])
    .where('r.campaign_id', '=', campaignId)
    .orderBy('r.position')
    .limit(page.limit + 1);
  if (page.after !== undefined) query = query.where('r.position', '>', String(page.after));
  if (page.state) query = query.where('r.state', '=', page.state);
  return recipientPage(await query.execute(), page.limit, (r) => ({
    contactId: r.contact_id,
    name: recipientName(r),
    phone: r.sent_to ?? r.phone,
    state: r.state,
    reason: r.reason,
    delivery: r.delivery,
    deliveryError: r.delivery_error,
    sentAt: r.sent_at?.toISOString() ?? null,
    reply: r.reply,
  }));
}
