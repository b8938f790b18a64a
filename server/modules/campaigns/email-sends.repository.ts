import { sql } from 'kysely';
import { UNCONFIRMED_REASON } from '#domain/campaigns/email-campaign.schema.ts';
import type { DbExecutor } from '../../db/database.ts';

/** What a run of an e-mail campaign's send reads of it. */
export async function findEmailRun(db: DbExecutor, campaignId: string) {
  return db
    .selectFrom('email_campaigns')
    .select(['subject', 'body', 'per_minute', 'status', 'campaign_type'])
    .where('id', '=', campaignId)
    .executeTakeFirst();
}

/**
 * Recipients a run that died left 'sending' are unconfirmed: the e-mail may or may not have gone, so it is never
 * sent again (in a sequence the reason names which of its e-mails it was).
 */
export async function markEmailLeftoversUnconfirmed(
  db: DbExecutor,
  campaignId: string,
  sequence: boolean,
): Promise<void> {
  await db
    .updateTable('email_campaign_recipients')
    .set({
      state: 'unconfirmed',
      reason: sequence
        ? sql<string>`'E-mail ' || (steps_sent + 1) || ': ' || ${UNCONFIRMED_REASON}::text`
        : UNCONFIRMED_REASON,
      due_at: null,
    })
    .where('campaign_id', '=', campaignId)
    .where('state', '=', 'sending')
    .execute();
}

/**
 * The next recipient whose turn it is, with their contact and its address. In a sequence only recipients whose
 * next e-mail is due, the one due first first.
 */
export async function findNextEmailRecipient(db: DbExecutor, campaignId: string, dueBy: Date | null) {
  return nextEmailRecipientQuery(db, campaignId, dueBy).executeTakeFirst();
}

/** findNextEmailRecipient's query, for a test to read its plan. */
export function nextEmailRecipientQuery(db: DbExecutor, campaignId: string, dueBy: Date | null) {
  const query = db
    .selectFrom('email_campaign_recipients as r')
    .leftJoin('contacts as c', 'c.id', 'r.contact_id')
    .select(['r.contact_id', 'r.unsubscribe_token', 'r.steps_sent', 'c.id as existing', 'c.email'])
    .select(['c.first_name', 'c.last_name', 'c.company', 'c.phone', 'c.title'])
    .where('r.campaign_id', '=', campaignId)
    .where('r.state', '=', 'queued')
    .limit(1);
  return dueBy
    ? query.where('r.due_at', '<=', dueBy).orderBy('r.due_at').orderBy('r.position')
    : query.orderBy('r.position');
}

/** When the first recipient still in a sequence is due for its next e-mail, if anyone is. */
export async function findNextDue(db: DbExecutor, campaignId: string): Promise<Date | null> {
  const row = await db
    .selectFrom('email_campaign_recipients')
    .select('due_at')
    .where('campaign_id', '=', campaignId)
    .where('state', '=', 'queued')
    .where('due_at', 'is not', null)
    .orderBy('due_at')
    .limit(1)
    .executeTakeFirst();
  return row?.due_at ?? null;
}

/** A recipient skipped (with why) or taken for sending (at `now`), with the address as it was then. */
export async function markEmailRecipient(
  db: DbExecutor,
  campaignId: string,
  contactId: string,
  mark: { skip: string; email: string | null } | { sendingAt: Date; email: string },
): Promise<void> {
  await db
    .updateTable('email_campaign_recipients')
    .set(
      'skip' in mark
        ? { state: 'skipped', reason: mark.skip, email: mark.email, due_at: null }
        : { state: 'sending', attempted_at: mark.sendingAt, email: mark.email },
    )
    .where('campaign_id', '=', campaignId)
    .where('contact_id', '=', contactId)
    .execute();
}

/**
 * The outcome of one e-mail: failed with the server's words, or sent; a sequence's recipient with e-mails still to
 * come waits for the next one (`nextDueAt`). A recipient who left meanwhile (no longer 'sending') stays out.
 */
export async function recordEmailOutcome(
  db: DbExecutor,
  campaignId: string,
  contactId: string,
  outcome:
    | { failed: string }
    | {
        stepsSent: number;
        sentAt: Date;
        messageId: string | null;
        delivery: 'smtp' | 'outbox';
        nextDueAt: Date | null;
      },
): Promise<void> {
  await db
    .updateTable('email_campaign_recipients')
    .set(
      'failed' in outcome
        ? { state: 'failed', reason: outcome.failed.slice(0, 1000), due_at: null }
        : {
            state: outcome.nextDueAt ? 'queued' : 'sent',
            due_at: outcome.nextDueAt,
            steps_sent: outcome.stepsSent,
            sent_at: outcome.sentAt,
            reason: null,
            message_id: outcome.messageId,
            delivery: outcome.delivery,
          },
    )
    .where('campaign_id', '=', campaignId)
    .where('contact_id', '=', contactId)
    .where('state', '=', 'sending')
    .execute();
}

/** The recipient an unsubscribe link names (its token). */
export async function findRecipientByToken(db: DbExecutor, token: string) {
  return db
    .selectFrom('email_campaign_recipients as r')
    .select(['r.user_id', 'r.campaign_id', 'r.email'])
    .where('r.unsubscribe_token', '=', token)
    .executeTakeFirst();
}
