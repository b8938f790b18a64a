import type { EmailCampaign, Recipient } from '#domain/campaigns/email-campaign.schema.ts';
import { CAMPAIGN_MESSAGES, type RecipientsQuery } from '#domain/campaigns/campaign.schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import {
  countsOf,
  selectCampaignRows,
  selectRecipientRows,
  toCampaignCore,
  type CoreRow,
} from './campaigns.repository.ts';
import { findSteps, stepCounts } from './email-sequences.repository.ts';

export const campaignNotFound = () => new AppError('NOT_FOUND', CAMPAIGN_MESSAGES.notFound);

type Row = CoreRow & {
  campaign_type: EmailCampaign['type'];
  subject: string;
  body: string;
  description: string | null;
};
const COLUMNS = ['campaign_type', 'subject', 'body', 'description'] as const;

/** The user's e-mail campaigns and sequences, newest first, each with its recipients' counts. */
export async function findEmailCampaigns(db: DbExecutor, userId: string): Promise<EmailCampaign[]> {
  const rows = await selectCampaignRows<Row>(db, 'email', COLUMNS, { userId });
  const ids = rows.map((r) => r.id);
  const counts = await countsOf(db, 'email', ids);
  const steps = await stepCounts(
    db,
    rows.filter((r) => r.campaign_type === 'sequence').map((r) => r.id),
  );
  return rows.map((r) => ({
    ...toCampaignCore(r, counts.get(r.id)),
    type: r.campaign_type,
    subject: r.subject,
    body: r.body,
    description: r.description,
    stepCount: steps.get(r.id) ?? 1,
  }));
}

/** One campaign of the user (a sequence with its e-mails), or NOT_FOUND (another user's is not found). */
export async function getEmailCampaign(
  db: DbExecutor,
  userId: string,
  id: string,
  options: { lock?: boolean } = {},
): Promise<EmailCampaign> {
  const [row] = await selectCampaignRows<Row>(db, 'email', COLUMNS, { userId, id, ...options });
  if (!row) throw campaignNotFound();
  const campaign = {
    ...toCampaignCore(row, (await countsOf(db, 'email', [id])).get(id)),
    type: row.campaign_type,
    subject: row.subject,
    body: row.body,
    description: row.description,
  };
  if (row.campaign_type !== 'sequence') return { ...campaign, stepCount: 1 };
  const steps = await findSteps(db, id);
  return { ...campaign, stepCount: steps.length, steps };
}

type Fields = {
  name: string;
  subject: string;
  body: string;
  perMinute: number;
  projectId: string | null;
  description?: string | null | undefined;
};

export async function insertEmailCampaign(
  db: DbExecutor,
  userId: string,
  values: Fields & { type?: EmailCampaign['type'] },
): Promise<string> {
  const row = await db
    .insertInto('email_campaigns')
    .values({
      user_id: userId,
      campaign_type: values.type ?? 'campaign',
      name: values.name,
      subject: values.subject,
      body: values.body,
      per_minute: values.perMinute,
      project_id: values.projectId,
      description: values.description ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateEmailCampaign(db: DbExecutor, id: string, values: Fields, now: Date) {
  const { name, subject, body, perMinute, projectId } = values;
  await db
    .updateTable('email_campaigns')
    .set({
      name,
      subject,
      body,
      per_minute: perMinute,
      project_id: projectId,
      updated_at: now,
      ...(values.description !== undefined && { description: values.description }),
    })
    .where('id', '=', id)
    .execute();
}

/** A page of a campaign's recipients in send order, with their state (optionally only one state). */
export async function findRecipients(
  db: DbExecutor,
  campaignId: string,
  query: RecipientsQuery,
): Promise<{ recipients: Recipient[]; next: number | null }> {
  type Extra = {
    sent_to: string | null;
    email: string | null;
    delivery: Recipient['delivery'];
    steps_sent: number;
    due_at: Date | null;
  };
  const columns = ['r.email as sent_to', 'c.email', 'r.delivery', 'r.steps_sent', 'r.due_at'];
  const page = await selectRecipientRows<Extra>(db, 'email', campaignId, query, columns);
  return {
    recipients: page.rows.map((r) => ({
      ...page.core(r),
      email: r.sent_to ?? r.email,
      delivery: r.delivery,
      stepsSent: r.steps_sent,
      dueAt: r.state === 'queued' ? (r.due_at?.toISOString() ?? null) : null,
    })),
    next: page.next,
  };
}
