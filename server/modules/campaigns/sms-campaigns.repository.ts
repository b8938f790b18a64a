import type { SmsCampaign, SmsRecipient } from '#domain/campaigns/sms-campaign.schema.ts';
import type { RecipientsQuery } from '#domain/campaigns/campaign.schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import {
  countsOf,
  selectCampaignRows,
  selectRecipientRows,
  toCampaignCore,
  type CoreRow,
  type StoredCounts,
} from './campaigns.repository.ts';
import { campaignNotFound } from './email-campaigns.repository.ts';

type Row = CoreRow & { message: string };
const toCampaign = (row: Row, counts: StoredCounts | undefined): SmsCampaign => ({
  ...toCampaignCore(row, counts),
  message: row.message,
  delivered: counts?.extra.delivered ?? 0,
});

/** The user's SMS campaigns, newest first, each with its recipients' counts. */
export async function findSmsCampaigns(db: DbExecutor, userId: string): Promise<SmsCampaign[]> {
  const rows = await selectCampaignRows<Row>(db, 'sms', ['message'], { userId });
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
  const [row] = await selectCampaignRows<Row>(db, 'sms', ['message'], { userId, id, ...options });
  if (!row) throw campaignNotFound();
  return toCampaign(row, (await countsOf(db, 'sms', [id])).get(id));
}

type Fields = { name: string; message: string; perMinute: number; projectId: string | null };

export async function insertSmsCampaign(db: DbExecutor, userId: string, values: Fields): Promise<string> {
  const { name, message, perMinute, projectId } = values;
  const row = await db
    .insertInto('sms_campaigns')
    .values({ user_id: userId, name, message, per_minute: perMinute, project_id: projectId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateSmsCampaign(db: DbExecutor, id: string, values: Fields, now: Date) {
  const { name, message, perMinute, projectId } = values;
  await db
    .updateTable('sms_campaigns')
    .set({ name, message, per_minute: perMinute, project_id: projectId, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** A page of an SMS campaign's recipients in send order, with state, delivery and reply (optionally one state). */
export async function findSmsRecipients(
  db: DbExecutor,
  campaignId: string,
  query: RecipientsQuery,
): Promise<{ recipients: SmsRecipient[]; next: number | null }> {
  type Extra = {
    sent_to: string | null;
    phone: string | null;
    delivery: SmsRecipient['delivery'];
    delivery_error: string | null;
    reply: string | null;
  };
  const columns = ['r.phone as sent_to', 'c.phone', 'r.delivery', 'r.delivery_error', 'r.reply'];
  const page = await selectRecipientRows<Extra>(db, 'sms', campaignId, query, columns);
  return {
    recipients: page.rows.map((r) => ({
      ...page.core(r),
      phone: r.sent_to ?? r.phone,
      delivery: r.delivery,
      deliveryError: r.delivery_error,
      reply: r.reply,
    })),
    next: page.next,
  };
}

/** The number and sender a recipient's message went to and from, if it was sent (the simulator's reply). */
export async function findSentMessage(
  db: DbExecutor,
  campaignId: string,
  contactId: string,
): Promise<{ phone: string; fromNumber: string } | null> {
  const row = await db
    .selectFrom('sms_campaign_recipients')
    .select(['phone', 'from_number'])
    .where('campaign_id', '=', campaignId)
    .where('contact_id', '=', contactId)
    .where('state', '=', 'sent')
    .executeTakeFirst();
  return row?.phone && row.from_number ? { phone: row.phone, fromNumber: row.from_number } : null;
}
