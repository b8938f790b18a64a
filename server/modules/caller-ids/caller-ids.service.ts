import type { CallerId } from '#domain/calls/call.schema.ts';
import { normalizePhone } from '#domain/contacts/phone.ts';
import { withActor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { ProviderError } from '../../telephony/telephony-provider.ts';
import { addCallerId, isCallerIdOfAnother } from './caller-ids.repository.ts';
import { phoneCountryOf } from '../profiles/public.ts';

export const CALLER_ID_MESSAGES = {
  notOnAccount:
    "That number is neither one of your Twilio account's numbers nor a caller ID verified on it. Verify it in the Twilio Console (Phone Numbers → Verified Caller IDs), then add it here.",
  anotherUsers: "That number is already another user's caller ID.",
} as const;

/**
 * Settings → Phone, add a caller ID: calls may only go out from a number the telephony account owns or
 * has verified, asked of the provider itself; and a number one person added (their own verified phone) cannot be
 * taken by another to call as them. The account's own numbers are company lines and may be shared.
 */
export async function addCheckedCallerId(
  ctx: Pick<AppContext, 'db' | 'telephony'>,
  userId: string,
  input: { number: string; label?: string | undefined; isDefault: boolean },
): Promise<CallerId> {
  // A number without a country code is read in the user's country (Settings → Profile).
  const country = await withActor(ctx.db, { kind: 'user', userId }, (trx) => phoneCountryOf(trx, userId));
  const e164 = normalizePhone(input.number, country);
  if (!e164) throw new AppError('VALIDATION_FAILED', 'Enter a full phone number');
  const status = await ctx.telephony.callerIdStatus(e164).catch((error: unknown) => {
    throw new AppError(
      'PROVIDER_ERROR',
      error instanceof ProviderError ? error.message : 'The telephony provider could not be reached.',
    );
  });
  if (status === 'unknown') throw new AppError('VALIDATION_FAILED', CALLER_ID_MESSAGES.notOnAccount);
  return withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
    if (status !== 'account-number' && (await isCallerIdOfAnother(trx, userId, e164)))
      throw new AppError('CONFLICT', CALLER_ID_MESSAGES.anotherUsers);
    return addCallerId(trx, userId, { ...input, e164 });
  });
}
