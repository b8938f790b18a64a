import { normalizePhone } from '#domain/contacts/phone.ts';
import { smsKeyword, SMS_REPLIES } from '#domain/sms/sms-keywords.ts';
import type { DbExecutor } from '../../db/database.ts';
import type { InboundSms } from '../../telephony/telephony-provider.ts';
import { recordSmsReply, skipOptedOutNumber } from '../campaigns/public.ts';
import { recordTextOptIn, recordTextOptOut } from '../consent/public.ts';
import { recordInboundMessage } from './sms-inbound.repository.ts';

/**
 * A message someone sent us (docs/decisions/019-sms-campaigns.md), applied once however often it is delivered:
 * STOP and its fellows put the number on the opt-out list and it leaves every campaign that has not messaged it yet;
 * START and UNSTOP take it off; HELP is answered. The text is kept as the reply on the last message this number
 * got from that number of ours. A reply simulated by a user reaches that user's records only. Returns the answer to
 * send back (the same for a message received again, as a provider retrying expects).
 */
export async function applyInboundSms(
  trx: DbExecutor,
  message: InboundSms,
  now: Date,
): Promise<string | null> {
  const from = normalizePhone(message.from) ?? message.from;
  const to = normalizePhone(message.to) ?? message.to;
  const keyword = smsKeyword(message.body);
  const answer = keyword === 'help' ? SMS_REPLIES.help : null;
  const userId = message.simulatedFor ?? null;
  const first = await recordInboundMessage(trx, {
    providerMessageId: message.providerMessageId,
    userId,
    phone: from,
    to,
    keyword,
    body: message.body,
  });
  if (!first) return answer;
  if (keyword === 'stop') {
    await recordTextOptOut(trx, from, message.body, userId);
    await skipOptedOutNumber(trx, from, userId);
  }
  if (keyword === 'start') await recordTextOptIn(trx, from, userId);
  await recordSmsReply(trx, { from, to, body: message.body, userId, at: now });
  return answer;
}
