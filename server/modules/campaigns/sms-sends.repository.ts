import { sql } from 'kysely';
import { SMS_UNCONFIRMED_REASON } from '#domain/campaigns/sms-campaign.schema.ts';
import type { DbExecutor } from '../../db/database.ts';

/** What a run of an SMS campaign's send reads of it. */
export async function findSmsRun(db: DbExecutor, campaignId: string) {
  return db
    .selectFrom('sms_campaigns')
    .select(['message', 'per_minute', 'status'])
    .where('id', '=', campaignId)
    .executeTakeFirst();
}

/** Recipients a run that died left 'sending' are unconfirmed: never messaged again blindly. */
export async function markSmsLeftoversUnconfirmed(db: DbExecutor, campaignId: string): Promise<void> {
  await db
    .updateTable('sms_campaign_recipients')
    .set({ state: 'unconfirmed', reason: SMS_UNCONFIRMED_REASON })
    .where('campaign_id', '=', campaignId)
    .where('state', '=', 'sending')
    .execute();
}

/**
 * The next recipient in send order whose turn it is (one waiting for their calling hours is not, until then), with
 * their contact and its number.
 */
export async function findNextSmsRecipient(db: DbExecutor, campaignId: string, now: Date) {
  return nextSmsRecipientQuery(db, campaignId, now).executeTakeFirst();
}

/** findNextSmsRecipient's query, for a test to read its plan. */
export function nextSmsRecipientQuery(db: DbExecutor, campaignId: string, now: Date) {
  return db
    .selectFrom('sms_campaign_recipients as r')
    .leftJoin('contacts as c', 'c.id', 'r.contact_id')
    .select(['r.contact_id', 'r.send_ref', 'c.id as existing', 'c.phone_e164', 'c.first_name', 'c.last_name'])
    .select(['c.email', 'c.company', 'c.phone', 'c.title'])
    .where('r.campaign_id', '=', campaignId)
    .where('r.state', '=', 'queued')
    .where((eb) => eb.or([eb('r.not_before', 'is', null), eb('r.not_before', '<=', now)]))
    .orderBy('r.position')
    .limit(1);
}

/** When the first recipient waiting for their calling hours may be texted, or null when none waits. */
export async function findFirstSmsWaitEnd(db: DbExecutor, campaignId: string): Promise<Date | null> {
  const row = await db
    .selectFrom('sms_campaign_recipients')
    .select((eb) => eb.fn.min('not_before').as('at'))
    .where('campaign_id', '=', campaignId)
    .where('state', '=', 'queued')
    .executeTakeFirst();
  return row?.at ? new Date(row.at) : null;
}

/** The recipient waits for their calling hours: not texted before `until`. */
export async function deferSmsRecipient(
  db: DbExecutor,
  campaignId: string,
  contactId: string,
  until: Date,
): Promise<void> {
  await db
    .updateTable('sms_campaign_recipients')
    .set({ not_before: until })
    .where('campaign_id', '=', campaignId)
    .where('contact_id', '=', contactId)
    .execute();
}

/** A recipient skipped (with why) or taken for sending from `from` (at `now`), with the number as it was then. */
export async function markSmsRecipient(
  db: DbExecutor,
  campaignId: string,
  contactId: string,
  mark: { skip: string; phone: string | null } | { sendingAt: Date; phone: string; from: string },
): Promise<void> {
  await db
    .updateTable('sms_campaign_recipients')
    .set(
      'skip' in mark
        ? { state: 'skipped', reason: mark.skip, phone: mark.phone }
        : { state: 'sending', attempted_at: mark.sendingAt, phone: mark.phone, from_number: mark.from },
    )
    .where('campaign_id', '=', campaignId)
    .where('contact_id', '=', contactId)
    .execute();
}

/** The outcome of one text: sent (its delivery report follows), failed, or unconfirmed, with the provider's words. */
export async function recordSmsOutcome(
  db: DbExecutor,
  campaignId: string,
  contactId: string,
  outcome: { sentAt: Date; providerMessageId: string } | { state: 'failed' | 'unconfirmed'; reason: string },
): Promise<void> {
  await db
    .updateTable('sms_campaign_recipients')
    .set(
      'state' in outcome
        ? { state: outcome.state, reason: outcome.reason.slice(0, 1000) }
        : {
            state: 'sent',
            sent_at: outcome.sentAt,
            provider_message_id: outcome.providerMessageId,
            // A delivery report may already have arrived (it finds the row by its reference).
            delivery: sql`coalesce(delivery, 'queued')`,
          },
    )
    .where('campaign_id', '=', campaignId)
    .where('contact_id', '=', contactId)
    .where('state', '=', 'sending')
    .execute();
}
