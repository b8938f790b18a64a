import { deliveryMovesForward, SMS_SKIP_REASONS } from '#domain/campaigns/sms-campaign.schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import type { SmsStatusEvent } from '../../telephony/telephony-provider.ts';

/*
 * What happens to SMS recipients after their message left: the provider's delivery reports, and what the number
 * replied. These run as the system (a provider's webhook has no user), so each names whose rows it may touch.
 */

/** A delivery report moves its message forward, never back (reports may come twice or out of order). */
export async function applySmsDelivery(
  trx: DbExecutor,
  ref: string | null,
  event: SmsStatusEvent,
): Promise<void> {
  let query = trx
    .selectFrom('sms_campaign_recipients')
    .select(['campaign_id', 'contact_id', 'delivery'])
    .forUpdate();
  query = ref
    ? query.where('send_ref', '=', ref)
    : query.where('provider_message_id', '=', event.providerMessageId);
  const row = await query.executeTakeFirst();
  if (!row || !deliveryMovesForward(row.delivery, event.status)) return;
  await trx
    .updateTable('sms_campaign_recipients')
    .set({ delivery: event.status, delivery_error: event.error?.slice(0, 1000) ?? null })
    .where('campaign_id', '=', row.campaign_id)
    .where('contact_id', '=', row.contact_id)
    .execute();
}

/** A number opted out: every campaign (of `userId` only, when given) that has not messaged it yet skips it now. */
export async function skipOptedOutNumber(
  trx: DbExecutor,
  phone: string,
  userId: string | null,
): Promise<void> {
  let query = trx
    .updateTable('sms_campaign_recipients')
    .set({ state: 'skipped', reason: SMS_SKIP_REASONS.optedOut })
    .where('phone', '=', phone)
    .where('state', '=', 'queued');
  if (userId) query = query.where('user_id', '=', userId);
  await query.execute();
}

/**
 * A reply is kept on the last message this number got from that number of ours (of `userId` only, when given).
 */
export async function recordSmsReply(
  trx: DbExecutor,
  reply: { from: string; to: string; body: string; userId: string | null; at: Date },
): Promise<void> {
  let query = trx
    .selectFrom('sms_campaign_recipients')
    .select(['campaign_id', 'contact_id'])
    .where('phone', '=', reply.from)
    .where('from_number', '=', reply.to)
    .where('state', '=', 'sent')
    .orderBy('sent_at', 'desc')
    .limit(1);
  if (reply.userId) query = query.where('user_id', '=', reply.userId);
  const last = await query.executeTakeFirst();
  if (!last) return;
  await trx
    .updateTable('sms_campaign_recipients')
    .set({ reply: reply.body.slice(0, 1600), replied_at: reply.at })
    .where('campaign_id', '=', last.campaign_id)
    .where('contact_id', '=', last.contact_id)
    .execute();
}
