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
    body: string;
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
      body: message.body.slice(0, 1600),
    })
    .onConflict((oc) => oc.column('provider_message_id').doNothing())
    .returning('provider_message_id')
    .executeTakeFirst();
  return row !== undefined;
}
