import type { SmsKeyword } from '#domain/sms/sms-keywords.ts';
import type { DbExecutor } from '../../db/database.ts';

/**
 * Records a message received, by the provider's message id, before anything is done with it: true the first time,
 * false when that message was already received (a provider retrying, or a signed request replayed), so nothing is
 * applied twice.
 */
export async function recordInboundMessage(
  db: DbExecutor,
  message: {
    providerMessageId: string;
    userId: string | null;
    phone: string;
    to: string;
    keyword: SmsKeyword | null;
  },
): Promise<boolean> {
  const row = await db
    .insertInto('sms_inbound_messages')
    .values({
      provider_message_id: message.providerMessageId,
      user_id: message.userId,
      phone: message.phone.slice(0, 40),
      to_number: message.to.slice(0, 40),
      keyword: message.keyword,
    })
    .onConflict((oc) => oc.column('provider_message_id').doNothing())
    .returning('provider_message_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The number opted out (for every user, or for `userId` alone), with the word it used; already out: unchanged. */
export async function insertOptOut(
  db: DbExecutor,
  phone: string,
  keyword: string,
  userId: string | null,
): Promise<void> {
  await db
    .insertInto('sms_opt_outs')
    .values({ phone, keyword: keyword.trim().toUpperCase().slice(0, 20), user_id: userId })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** The number opts back in (for every user, or for `userId` alone). */
export async function deleteOptOut(db: DbExecutor, phone: string, userId: string | null): Promise<void> {
  let query = db.deleteFrom('sms_opt_outs').where('phone', '=', phone);
  query = userId ? query.where('user_id', '=', userId) : query.where('user_id', 'is', null);
  await query.execute();
}

/** Whether texts from `userId` may not go to this number (it opted out of everyone's, or of theirs). */
export async function isSmsOptedOut(db: DbExecutor, phone: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('sms_opt_outs')
    .select('phone')
    .where('phone', '=', phone)
    .where((eb) => eb.or([eb('user_id', 'is', null), eb('user_id', '=', userId)]))
    .executeTakeFirst();
  return row !== undefined;
}
