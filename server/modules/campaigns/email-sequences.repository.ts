import { sql } from 'kysely';
import { dueAfter, type SequenceStep } from '#domain/campaigns/email-sequence.schema.ts';
import type { DbExecutor } from '../../db/database.ts';

/** A sequence's e-mails, in order. */
export async function findSteps(db: DbExecutor, campaignId: string): Promise<SequenceStep[]> {
  const rows = await db
    .selectFrom('email_sequence_steps')
    .select(['subject', 'body', 'delay_days'])
    .where('campaign_id', '=', campaignId)
    .orderBy('step')
    .execute();
  return rows.map((r) => ({ subject: r.subject, body: r.body, delayDays: r.delay_days }));
}

/** How many e-mails each of these sequences has. */
export async function stepCounts(db: DbExecutor, campaignIds: string[]): Promise<Map<string, number>> {
  if (campaignIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('email_sequence_steps')
    .select(['campaign_id', (eb) => eb.fn.countAll<string>().as('n')])
    .where('campaign_id', 'in', campaignIds)
    .groupBy('campaign_id')
    .execute();
  return new Map(rows.map((r) => [r.campaign_id, Number(r.n)]));
}

/** The sequence's e-mails become exactly these (a draft's Save Sequence). */
export async function replaceSteps(
  db: DbExecutor,
  userId: string,
  campaignId: string,
  steps: SequenceStep[],
): Promise<void> {
  await db.deleteFrom('email_sequence_steps').where('campaign_id', '=', campaignId).execute();
  await db
    .insertInto('email_sequence_steps')
    .values(
      steps.map((s, i) => ({
        campaign_id: campaignId,
        user_id: userId,
        step: i + 1,
        subject: s.subject,
        body: s.body,
        delay_days: s.delayDays,
      })),
    )
    .execute();
}

/** When a contact who joins the sequence now gets its first e-mail. */
export async function firstDueAt(db: DbExecutor, campaignId: string, now: Date): Promise<Date> {
  const first = await db
    .selectFrom('email_sequence_steps')
    .select('delay_days')
    .where('campaign_id', '=', campaignId)
    .where('step', '=', 1)
    .executeTakeFirstOrThrow();
  return dueAfter(now, first.delay_days);
}

/** The sequence starts: everyone enrolled in the draft gets the first e-mail its delay after now. */
export async function startSequence(db: DbExecutor, campaignId: string, now: Date): Promise<void> {
  await db
    .updateTable('email_campaign_recipients')
    .set({ due_at: await firstDueAt(db, campaignId, now) })
    .where('campaign_id', '=', campaignId)
    .where('state', '=', 'queued')
    .execute();
}

/**
 * These contacts leave the sequence, with why; e-mails already sent stay sent. A contact whose e-mail is being
 * handed over at this moment leaves too: that e-mail's outcome is then not recorded on the sequence (it is on the
 * contact), and nothing more is sent. Returns how many left.
 */
export async function leaveSequence(
  db: DbExecutor,
  campaignId: string,
  contactIds: string[],
  reason: string,
): Promise<number> {
  if (contactIds.length === 0) return 0;
  const result = await db
    .updateTable('email_campaign_recipients')
    .set({ state: 'skipped', reason, due_at: null })
    .where('campaign_id', '=', campaignId)
    .where('contact_id', 'in', contactIds)
    .where('state', 'in', ['queued', 'sending'])
    .execute();
  return Number(result[0]?.numUpdatedRows ?? 0);
}

/**
 * A contact (a do-not-call or not-interested disposition), or an address that unsubscribed, leaves every sequence of
 * the user it is still in, drafts included (it would otherwise get the first e-mail when the draft starts). By
 * address: the recipients mailed at it (the ones not mailed yet are skipped when their first e-mail is due, as every
 * send checks the unsubscribe list).
 */
export async function leaveSequences(
  db: DbExecutor,
  userId: string,
  who: { contactId: string } | { email: string },
  reason: string,
): Promise<void> {
  const match =
    'contactId' in who
      ? sql`r.contact_id = ${who.contactId}`
      : sql`lower(r.email) = ${who.email.toLowerCase()}`;
  await sql`
    update email_campaign_recipients r set state = 'skipped', reason = ${reason}, due_at = null
    from email_campaigns c
    where c.id = r.campaign_id and c.campaign_type = 'sequence' and c.user_id = ${userId}
      and r.user_id = ${userId} and ${match} and r.state in ('queued', 'sending')`.execute(db);
}
