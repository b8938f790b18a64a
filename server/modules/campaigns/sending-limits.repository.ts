import { limitFor, nextSlot, type SendingLimits } from '#domain/campaigns/campaign-pace.ts';
import type { CampaignChannel } from '#domain/campaigns/campaign-state.ts';
import type { DbExecutor } from '../../db/database.ts';

/** The user's sending limits (none set: each campaign's own pace alone). */
export async function findSendingLimits(db: DbExecutor, userId: string): Promise<SendingLimits> {
  const row = await db
    .selectFrom('sending_limits')
    .select(['email_per_minute', 'sms_per_minute'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return { emailPerMinute: row?.email_per_minute ?? null, smsPerMinute: row?.sms_per_minute ?? null };
}

export async function saveSendingLimits(
  db: DbExecutor,
  userId: string,
  limits: SendingLimits,
  now: Date,
): Promise<void> {
  const values = { email_per_minute: limits.emailPerMinute, sms_per_minute: limits.smsPerMinute };
  await db
    .insertInto('sending_limits')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...values, updated_at: now }))
    .execute();
}

/**
 * Takes the user's next sending slot under their limit, in the caller's transaction (the row is locked, so two
 * campaigns of the user never take the same slot): null when a message may go now (recorded as the last), or when
 * the next may. No limit set: always now.
 */
export async function takeSendingSlot(
  db: DbExecutor,
  userId: string,
  channel: CampaignChannel,
  now: Date,
): Promise<Date | null> {
  const row = await db
    .selectFrom('sending_limits')
    .select(['email_per_minute', 'sms_per_minute', 'email_last_at', 'sms_last_at'])
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) return null;
  const limit = limitFor({ emailPerMinute: row.email_per_minute, smsPerMinute: row.sms_per_minute }, channel);
  if (!limit) return null;
  const wait = nextSlot(channel === 'email' ? row.email_last_at : row.sms_last_at, limit, now);
  if (wait) return wait;
  await db
    .updateTable('sending_limits')
    .set(channel === 'email' ? { email_last_at: now } : { sms_last_at: now })
    .where('user_id', '=', userId)
    .execute();
  return null;
}
