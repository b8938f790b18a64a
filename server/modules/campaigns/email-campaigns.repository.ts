import type { SelectQueryBuilder } from 'kysely';
import {
  CAMPAIGN_MESSAGES,
  type EmailCampaign,
  type Recipient,
  type RecipientCounts,
} from '#domain/campaigns/email-campaign.schema.ts';
import type { Database } from '../../db/schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import {
  countsOf,
  deleteRecipients,
  EMPTY_COUNTS,
  insertRecipients,
  recipientName,
  recipientPage,
  setStatus,
  withoutExtra,
} from './campaign-recipients.repository.ts';
import { findSteps, stepCounts } from './email-sequences.repository.ts';

export const campaignNotFound = () => new AppError('NOT_FOUND', CAMPAIGN_MESSAGES.notFound);

const COLUMNS = [
  'id',
  'name',
  'campaign_type',
  'status',
  'subject',
  'body',
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
  campaign_type: 'campaign' | 'sequence';
  status: EmailCampaign['status'];
  subject: string;
  body: string;
  per_minute: number;
  project_id: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  pause_reason: string | null;
};

const toCampaign = (
  row: Row,
  counts: (RecipientCounts & { extra: object }) | undefined,
  stepCount: number,
): EmailCampaign => ({
  id: row.id,
  name: row.name,
  type: row.campaign_type,
  status: row.status,
  subject: row.subject,
  body: row.body,
  perMinute: row.per_minute,
  projectId: row.project_id,
  createdAt: row.created_at.toISOString(),
  startedAt: row.started_at?.toISOString() ?? null,
  finishedAt: row.finished_at?.toISOString() ?? null,
  pauseReason: row.pause_reason,
  counts: counts ? withoutExtra(counts) : { ...EMPTY_COUNTS },
  stepCount,
});

/** The user's e-mail campaigns, newest first, each with its recipients' counts. */
export async function findEmailCampaigns(db: DbExecutor, userId: string): Promise<EmailCampaign[]> {
  const rows = await db
    .selectFrom('email_campaigns')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .execute();
  const ids = rows.map((r) => r.id);
  const counts = await countsOf(db, 'email', ids);
  const steps = await stepCounts(
    db,
    rows.filter((r) => r.campaign_type === 'sequence').map((r) => r.id),
  );
  return rows.map((r) => toCampaign(r, counts.get(r.id), steps.get(r.id) ?? 1));
}

/** One campaign of the user, or NOT_FOUND (another user's campaign is not found). `lock` takes its row lock. */
export async function getEmailCampaign(
  db: DbExecutor,
  userId: string,
  id: string,
  options: { lock?: boolean } = {},
): Promise<EmailCampaign> {
  let query = db
    .selectFrom('email_campaigns')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw campaignNotFound();
  const counts = (await countsOf(db, 'email', [id])).get(id);
  if (row.campaign_type !== 'sequence') return toCampaign(row, counts, 1);
  const steps = await findSteps(db, id);
  return { ...toCampaign(row, counts, steps.length), steps };
}

export async function insertEmailCampaign(
  db: DbExecutor,
  values: {
    userId: string;
    type?: EmailCampaign['type'];
    name: string;
    subject: string;
    body: string;
    perMinute: number;
    projectId: string | null;
  },
): Promise<string> {
  const row = await db
    .insertInto('email_campaigns')
    .values({
      user_id: values.userId,
      campaign_type: values.type ?? 'campaign',
      name: values.name,
      subject: values.subject,
      body: values.body,
      per_minute: values.perMinute,
      project_id: values.projectId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateEmailCampaign(
  db: DbExecutor,
  id: string,
  values: { name: string; subject: string; body: string; perMinute: number; projectId: string | null },
  now: Date,
): Promise<void> {
  await db
    .updateTable('email_campaigns')
    .set({
      name: values.name,
      subject: values.subject,
      body: values.body,
      per_minute: values.perMinute,
      project_id: values.projectId,
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

export const setCampaignStatus = (
  db: DbExecutor,
  id: string,
  status: EmailCampaign['status'],
  now: Date,
  stamps: { started?: boolean; finished?: boolean } = {},
) => setStatus(db, 'email', id, status, now, stamps);

export async function deleteEmailCampaign(db: DbExecutor, id: string): Promise<void> {
  await db.deleteFrom('email_campaigns').where('id', '=', id).execute();
}

/** Adds contacts as recipients (insertRecipients); `dueAt`: when a sequence's first e-mail is due for them. */
export const addRecipients = (
  db: DbExecutor,
  userId: string,
  campaignId: string,
  contactIds: readonly string[] | SelectQueryBuilder<Database, 'contacts', { id: string }>,
  dueAt: Date | null = null,
) => insertRecipients(db, 'email', userId, campaignId, contactIds, { dueAt });

export const removeRecipients = (db: DbExecutor, campaignId: string, contactIds: string[]) =>
  deleteRecipients(db, 'email', campaignId, contactIds);

/** A page of a campaign's recipients in send order, with their state (optionally only one state). */
export async function findRecipients(
  db: DbExecutor,
  campaignId: string,
  page: { after?: number | undefined; limit: number; state?: Recipient['state'] | undefined },
): Promise<{ recipients: Recipient[]; next: number | null }> {
  let query = db
    .selectFrom('email_campaign_recipients as r')
    .leftJoin('contacts as c', 'c.id', 'r.contact_id')
    .select([
      'r.position',
      'r.contact_id',
      'r.email as sent_to',
      'c.email',
      'c.first_name',
      'c.last_name',
      'r.state',
      'r.reason',
      'r.delivery',
      'r.sent_at',
      'r.steps_sent',
      'r.due_at',
    ])
    .where('r.campaign_id', '=', campaignId)
    .orderBy('r.position')
    .limit(page.limit + 1);
  if (page.after !== undefined) query = query.where('r.position', '>', String(page.after));
  if (page.state) query = query.where('r.state', '=', page.state);
  return recipientPage(await query.execute(), page.limit, (r) => ({
    contactId: r.contact_id,
    name: recipientName(r),
    email: r.sent_to ?? r.email,
    state: r.state,
    reason: r.reason,
    delivery: r.delivery,
    sentAt: r.sent_at?.toISOString() ?? null,
    stepsSent: r.steps_sent,
    dueAt: r.state === 'queued' ? (r.due_at?.toISOString() ?? null) : null,
  }));
}
