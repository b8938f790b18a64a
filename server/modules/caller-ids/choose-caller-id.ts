import { nearestCallerId } from '#domain/calls/local-presence.ts';
import type { DbExecutor } from '../../db/database.ts';
import { placeOfNumber } from '../../telephony/number-places.ts';
import { localPresenceOf } from '../profiles/public.ts';
import { findCallerIds, resolveCallerId } from './caller-ids.repository.ts';

/**
 * The number a call to `to` goes out from: the one the user chose (checked to be theirs); else, with local presence
 * on and several caller IDs, the one nearest the number called (decision 027); else their default, else the
 * instance's. Null when there is none at all.
 */
/** Whether the user's calls choose their caller ID by the contact: local presence on, and several caller IDs to choose from. */
export async function usesLocalPresence(db: DbExecutor, userId: string): Promise<boolean> {
  return (await localPresenceOf(db, userId)) && (await findCallerIds(db, userId)).length > 1;
}

export async function chooseCallerId(
  db: DbExecutor,
  userId: string,
  call: { requested: string | undefined; to: string | null; instanceDefault: string | null },
): Promise<string | null> {
  if (!call.requested && call.to && (await localPresenceOf(db, userId))) {
    const callerIds = await findCallerIds(db, userId);
    if (callerIds.length > 1) {
      const nearest = nearestCallerId(
        placeOfNumber(call.to),
        callerIds.map((c) => ({
          e164: c.numberE164,
          isDefault: c.isDefault,
          place: placeOfNumber(c.numberE164),
        })),
      );
      if (nearest) return nearest.callerId.e164;
    }
  }
  return resolveCallerId(db, userId, call.requested, call.instanceDefault);
}
