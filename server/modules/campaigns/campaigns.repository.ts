import { sql, type SelectQueryBuilder } from 'kysely';
import {
  CAMPAIGN_MAX_RECIPIENTS,
  TOO_MANY_RECIPIENTS,
  type CampaignStatus,
  type RecipientCounts,
} from '#domain/campaigns/email-campaign.schema.ts';
import type { Database } from '../../db/schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import { orderedSelection } from '../contacts/public.ts';

/**
 * What e-mail and SMS campaigns share: a campaign row, recipients as rows with a state, and per-state counts kept by
 * triggers (migrations 0017, 0020). The tables differ by kind; the rules do not.
 */
export type CampaignKind = 'email' | 'sms';
const TABLES = {
  email: {
    campaigns: 'email_campaigns',
    recipients: 'email_campaign_recipients',
    counts: 'email_campaign_counts',
  },
  sms: { campaigns: 'sms_campaigns', recipients: 'sms_campaign_recipients', counts: 'sms_campaign_counts' },
} as const;

export const EMPTY_COUNTS: RecipientCounts = {
  total: 0,
  queued: 0,
  sent: 0,
  failed: 0,
  skipped: 0,
  unconfirmed: 0,
};

/** Counts as stored: the states, and other rows kept beside them (an SMS campaign's 'delivered'). */
export type StoredCounts = RecipientCounts & { extra: Record<string, number> };

/**
 * Per-state counts; 'sending' counts as queued until its outcome is known. Other rows kept beside the states (an
 * SMS campaign's 'delivered') are returned under `extra`, outside the total.
 */
export async function countsOf(
  db: DbExecutor,
  kind: CampaignKind,
  ids: string[],
): Promise<Map<string, StoredCounts>> {
  const result = new Map<string, StoredCounts>();
  if (ids.length === 0) return result;
  const rows = await db
    .selectFrom(TABLES[kind].counts)
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

export const withoutExtra = ({
  extra: _extra,
  ...counts
}: RecipientCounts & { extra: object }): RecipientCounts => counts;

/** Sets a campaign's status (clearing any pause reason), stamping when it started or finished. */
export async function setStatus(
  db: DbExecutor,
  kind: CampaignKind,
  id: string,
  status: CampaignStatus,
  now: Date,
  stamps: { started?: boolean; finished?: boolean } = {},
): Promise<void> {
  await db
    .updateTable(TABLES[kind].campaigns)
    .set({
      status,
      updated_at: now,
      pause_reason: null,
      ...(stamps.started && { started_at: now }),
      ...(stamps.finished && { finished_at: now }),
    })
    .where('id', '=', id)
    .execute();
}

/**
 * Adds contacts as recipients, in the order given (ticked ids) or name order (a whole filter); contacts already
 * there are ignored (spec part 2 §2.3). Only the user's own contacts are added, up to CAMPAIGN_MAX_RECIPIENTS in
 * all (more is refused before anything is written). `extra` sets more columns of the new rows. Returns how many
 * were added.
 */
export async function insertRecipients(
  db: DbExecutor,
  kind: CampaignKind,
  userId: string,
  campaignId: string,
  contactIds: readonly string[] | SelectQueryBuilder<Database, 'contacts', { id: string }>,
  extra: { dueAt?: Date | null } = {},
): Promise<number> {
  const current = (await countsOf(db, kind, [campaignId])).get(campaignId)?.total ?? 0;
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
  const table = sql.table(TABLES[kind].recipients);
  // E-mail: when a sequence's first e-mail is due. SMS: the number as it is now, so a STOP from it finds the
  // recipient before its message goes (the send reads the contact's number again when it gets there).
  const more = kind === 'email' ? sql`, due_at` : sql`, phone`;
  const moreValue =
    kind === 'email'
      ? sql`, ${extra.dueAt ?? null}::timestamptz`
      : sql`, (select phone_e164 from contacts where contacts.id = candidates.id)`;
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
  kind: CampaignKind,
  campaignId: string,
  contactIds: string[],
): Promise<void> {
  if (contactIds.length === 0) return;
  await db
    .deleteFrom(TABLES[kind].recipients)
    .where('campaign_id', '=', campaignId)
    .where('contact_id', 'in', contactIds)
    .execute();
}

/** When the campaign last handed a message over, if ever. */
export async function lastAttempt(
  db: DbExecutor,
  kind: CampaignKind,
  campaignId: string,
): Promise<Date | null> {
  const row = await db
    .selectFrom(TABLES[kind].recipients)
    .select((eb) => eb.fn.max('attempted_at').as('last'))
    .where('campaign_id', '=', campaignId)
    .executeTakeFirst();
  return row?.last ?? null;
}

/** A page of recipients read with one row too many: the page, and where the next starts (null on the last). */
export function recipientPage<R extends { position: string }, T>(
  rows: R[],
  limit: number,
  toRecipient: (row: R) => T,
): { recipients: T[]; next: number | null } {
  const shown = rows.slice(0, limit);
  return {
    recipients: shown.map(toRecipient),
    next: rows.length > limit ? Number(shown.at(-1)!.position) : null,
  };
}

/** A recipient's name as lists show it; a contact deleted since has none. */
export const recipientName = (row: { first_name: string | null; last_name: string | null }) =>
  row.first_name === null ? 'Deleted contact' : `${row.first_name} ${row.last_name ?? ''}`.trim();
