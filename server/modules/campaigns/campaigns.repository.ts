import { sql, type SelectQueryBuilder } from 'kysely';
import { CAMPAIGN_MAX_RECIPIENTS, TOO_MANY_RECIPIENTS } from '#domain/campaigns/campaign.schema.ts';
import {
  EMPTY_COUNTS,
  type CampaignChannel,
  type CampaignStatus,
  type RecipientCounts,
  type RecipientState,
} from '#domain/campaigns/campaign-state.ts';
import type { Database } from '../../db/schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import { orderedSelection } from '../contacts/public.ts';

/**
 * The statements every campaign shares, whatever its channel: a campaign row, recipients as rows with a state, and
 * per-state counts kept by triggers (migrations 0017, 0020). The tables differ by channel; the rules do not.
 */
const TABLES = {
  email: {
    campaigns: 'email_campaigns',
    recipients: 'email_campaign_recipients',
    counts: 'email_campaign_counts',
  },
  sms: { campaigns: 'sms_campaigns', recipients: 'sms_campaign_recipients', counts: 'sms_campaign_counts' },
} as const;

/** Counts as stored: the states, and other rows kept beside them (an SMS campaign's 'delivered'). */
export type StoredCounts = RecipientCounts & { extra: Record<string, number> };

/**
 * Per-state counts; 'sending' counts as queued until its outcome is known. Other rows kept beside the states (an
 * SMS campaign's 'delivered') are returned under `extra`, outside the total.
 */
export async function countsOf(
  db: DbExecutor,
  channel: CampaignChannel,
  ids: string[],
): Promise<Map<string, StoredCounts>> {
  const result = new Map<string, StoredCounts>();
  if (ids.length === 0) return result;
  const rows = await db
    .selectFrom(TABLES[channel].counts)
    .select(['campaign_id', 'state', 'n'])
    .where('campaign_id', 'in', ids)
    .execute();
  for (const row of rows) {
    const counts = result.get(row.campaign_id) ?? { ...EMPTY_COUNTS, extra: {} };
    const state = row.state === 'sending' ? 'queued' : row.state;
    if (state in EMPTY_COUNTS) {
      counts[state as keyof RecipientCounts] += row.n;
      counts.total += row.n;
    } else counts.extra[state] = (counts.extra[state] ?? 0) + row.n;
    result.set(row.campaign_id, counts);
  }
  return result;
}

/** The counts a screen shows (the states), without the rows kept beside them. */
export const countsShown = (counts: StoredCounts | undefined): RecipientCounts => {
  if (!counts) return { ...EMPTY_COUNTS };
  const { extra: _extra, ...shown } = counts;
  return shown;
};

/** The columns every campaign row has, and what they become in an answer (each channel adds its own). */
export const CORE_COLUMNS = [
  'id',
  'name',
  'status',
  'per_minute',
  'project_id',
  'created_at',
  'started_at',
  'finished_at',
  'pause_reason',
] as const;
export type CoreRow = {
  id: string;
  name: string;
  status: CampaignStatus;
  per_minute: number;
  project_id: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  pause_reason: string | null;
};
export const toCampaignCore = (row: CoreRow, counts: StoredCounts | undefined) => ({
  id: row.id,
  name: row.name,
  status: row.status,
  perMinute: row.per_minute,
  projectId: row.project_id,
  createdAt: row.created_at.toISOString(),
  startedAt: row.started_at?.toISOString() ?? null,
  finishedAt: row.finished_at?.toISOString() ?? null,
  pauseReason: row.pause_reason,
  counts: countsShown(counts),
});

/** A column of a select list, 'table.column' or 'table.column as alias'. */
function column(text: string) {
  const [ref, alias] = text.split(' as ');
  return alias ? sql`${sql.ref(ref!)} as ${sql.id(alias)}` : sql.ref(ref!);
}

/**
 * The user's campaigns of a channel, newest first (or the one with `id`, its row locked with `lock`), with the
 * core columns and the channel's own (`columns`), as rows of type R.
 */
export async function selectCampaignRows<R>(
  db: DbExecutor,
  channel: CampaignChannel,
  columns: readonly string[],
  where: { userId: string; id?: string; lock?: boolean },
): Promise<R[]> {
  const result = await sql<R>`
    select ${sql.join([...CORE_COLUMNS, ...columns].map(column))}
    from ${sql.table(TABLES[channel].campaigns)}
    where user_id = ${where.userId} ${where.id ? sql`and id = ${where.id}` : sql``}
    order by created_at desc ${where.lock ? sql`for update` : sql``}`.execute(db);
  return result.rows;
}

/**
 * A page of a campaign's recipients in send order (optionally one state), read with one row too many: the
 * recipient's core columns and the contact's name, the channel's own `columns` (r.… and c.…) beside them.
 */
export async function selectRecipientRows<R>(
  db: DbExecutor,
  channel: CampaignChannel,
  campaignId: string,
  page: { after?: number | undefined; limit: number; state?: string | undefined },
  columns: readonly string[],
) {
  const core = [
    'r.position',
    'r.contact_id',
    'r.state',
    'r.reason',
    'r.sent_at',
    'c.first_name',
    'c.last_name',
  ];
  const result = await sql<R & RecipientCoreRow>`
    select ${sql.join([...core, ...columns].map(column))}
    from ${sql.table(TABLES[channel].recipients)} r left join contacts c on c.id = r.contact_id
    where r.campaign_id = ${campaignId}
      ${page.after !== undefined ? sql`and r.position > ${page.after}` : sql``}
      ${page.state ? sql`and r.state = ${page.state}` : sql``}
    order by r.position limit ${page.limit + 1}`.execute(db);
  const rows = result.rows;
  const shown = rows.slice(0, page.limit);
  return {
    rows: shown,
    next: rows.length > page.limit ? Number(shown.at(-1)!.position) : null,
    /** What every recipient row says: who, where they stand and why, and when it was sent. */
    core: (r: RecipientCoreRow) => ({
      contactId: r.contact_id,
      name: recipientName(r),
      state: r.state,
      reason: r.reason,
      sentAt: r.sent_at?.toISOString() ?? null,
    }),
  };
}
type RecipientCoreRow = {
  position: string;
  contact_id: string;
  state: RecipientState;
  reason: string | null;
  sent_at: Date | null;
  first_name: string | null;
  last_name: string | null;
};

/** Sets a campaign's status (clearing any pause reason), stamping when it started or finished. */
export async function setStatus(
  db: DbExecutor,
  channel: CampaignChannel,
  id: string,
  status: CampaignStatus,
  now: Date,
  stamps: { started?: boolean; finished?: boolean; reopened?: boolean } = {},
): Promise<void> {
  await db
    .updateTable(TABLES[channel].campaigns)
    .set({
      status,
      updated_at: now,
      pause_reason: null,
      ...(stamps.started && { started_at: now }),
      ...(stamps.finished && { finished_at: now }),
      ...(stamps.reopened && { finished_at: null }),
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteCampaign(db: DbExecutor, channel: CampaignChannel, id: string): Promise<void> {
  await db.deleteFrom(TABLES[channel].campaigns).where('id', '=', id).execute();
}

/** Whether the campaign is still sending, its row locked for this transaction (a send's every step checks). */
export async function lockIfSending(db: DbExecutor, channel: CampaignChannel, id: string): Promise<boolean> {
  const row = await db
    .selectFrom(TABLES[channel].campaigns)
    .select('status')
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return row?.status === 'sending';
}

/**
 * The mail server or provider failed (it refused no one in particular): the recipient being handed over, if any,
 * goes back to the queue, and the campaign pauses with the reason, to be resumed once it is fixed.
 */
export async function pauseForFailure(
  db: DbExecutor,
  channel: CampaignChannel,
  id: string,
  contactId: string | null,
  reason: string,
  now: Date,
): Promise<void> {
  if (contactId)
    await db
      .updateTable(TABLES[channel].recipients)
      .set({ state: 'queued', attempted_at: null })
      .where('campaign_id', '=', id)
      .where('contact_id', '=', contactId)
      .where('state', '=', 'sending')
      .execute();
  await db
    .updateTable(TABLES[channel].campaigns)
    .set({ status: 'paused', pause_reason: reason.slice(0, 1000), updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .execute();
}

/** Everyone still waiting is skipped with `reason` (a canceled campaign). */
export async function skipQueued(
  db: DbExecutor,
  channel: CampaignChannel,
  id: string,
  reason: string,
): Promise<void> {
  await db
    .updateTable(TABLES[channel].recipients)
    .set({ state: 'skipped', reason })
    .where('campaign_id', '=', id)
    .where('state', '=', 'queued')
    .execute();
}

/**
 * Adds contacts as recipients, in the order given (ticked ids) or name order (a whole filter); contacts already
 * there are ignored. Only the user's own contacts are added, up to CAMPAIGN_MAX_RECIPIENTS in all (more is refused
 * before anything is written). `dueAt`: when a sequence's first e-mail is due for them. Returns how many were added.
 */
export async function insertRecipients(
  db: DbExecutor,
  channel: CampaignChannel,
  userId: string,
  campaignId: string,
  contactIds: readonly string[] | SelectQueryBuilder<Database, 'contacts', { id: string }>,
  dueAt: Date | null = null,
): Promise<number> {
  const current = (await countsOf(db, channel, [campaignId])).get(campaignId)?.total ?? 0;
  const adding = Array.isArray(contactIds)
    ? contactIds.length
    : Number(
        (
          await db
            .selectFrom(
              (contactIds as SelectQueryBuilder<Database, 'contacts', { id: string }>).as('matching'),
            )
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
  if (current + adding > CAMPAIGN_MAX_RECIPIENTS)
    throw new AppError('VALIDATION_FAILED', TOO_MANY_RECIPIENTS);
  const source = orderedSelection(userId, contactIds);
  const table = sql.table(TABLES[channel].recipients);
  // E-mail: when a sequence's first e-mail is due. SMS: the number as it is now, so a STOP from it finds the
  // recipient before its message goes (the send reads the contact's number again when it gets there).
  const [more, moreValue] =
    channel === 'email'
      ? [sql`, due_at`, sql`, ${dueAt}::timestamptz`]
      : [sql`, phone`, sql`, (select phone_e164 from contacts where contacts.id = candidates.id)`];
  const result = await sql<{ added: number }>`
    with candidates as (${source}),
    inserted as (
      insert into ${table} (campaign_id, contact_id, user_id${more})
      select ${campaignId}, id, ${userId}${moreValue} from candidates order by ordinal
      on conflict (campaign_id, contact_id) do nothing
      returning 1
    )
    select count(*)::int as added from inserted`.execute(db);
  return result.rows[0]?.added ?? 0;
}

export async function deleteRecipients(
  db: DbExecutor,
  channel: CampaignChannel,
  campaignId: string,
  contactIds: string[],
): Promise<void> {
  if (contactIds.length === 0) return;
  await db
    .deleteFrom(TABLES[channel].recipients)
    .where('campaign_id', '=', campaignId)
    .where('contact_id', 'in', contactIds)
    .execute();
}

/** When the campaign last handed a message over, if ever. */
export async function lastAttempt(
  db: DbExecutor,
  channel: CampaignChannel,
  campaignId: string,
): Promise<Date | null> {
  const row = await db
    .selectFrom(TABLES[channel].recipients)
    .select((eb) => eb.fn.max('attempted_at').as('last'))
    .where('campaign_id', '=', campaignId)
    .executeTakeFirst();
  return row?.last ?? null;
}

/** A recipient's name as lists show it; a contact deleted since has none. */
export const recipientName = (row: { first_name: string | null; last_name: string | null }) =>
  row.first_name === null ? 'Deleted contact' : `${row.first_name} ${row.last_name ?? ''}`.trim();
