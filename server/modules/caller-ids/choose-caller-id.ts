import { nearestCallerId } from '#domain/calls/local-presence.ts';
import { normalizePhone } from '#domain/contacts/phone.ts';
import type { DbExecutor } from '../../db/database.ts';
import { placeOfNumber } from '../../telephony/number-places.ts';
import { localPresenceOf } from '../profiles/public.ts';
import { findCallerIds, resolveCallerId } from './caller-ids.repository.ts';

/** Whether the user's calls choose their caller ID by the contact: local presence on, and several caller IDs to choose from. */
export async function usesLocalPresence(db: DbExecutor, userId: string): Promise<boolean> {
  return (await findCallerIds(db, userId)).length > 1 && (await localPresenceOf(db, userId));
}

/**
 * The number a call to `to` goes out from: the one the user chose (checked to be theirs); else, with local presence
 * on and several caller IDs, the one nearest the number called (decision 027); else their default, else the
 * instance's. Null when there is none at all. A user with one caller ID or none costs one query, as before.
 */
export async function chooseCallerId(
  db: DbExecutor,
  userId: string,
  call: { requested: string | undefined; to: string | null; instanceDefault: string | null },
): Promise<string | null> {
  const requested = call.requested ? normalizePhone(call.requested) : null;
  if (requested) return resolveCallerId(db, userId, requested, call.instanceDefault);
  return (await chooseCallerIds(db, userId, [call.to], call.instanceDefault))[0]!;
}

/**
 * chooseCallerId for several calls none of which asked for a number (a Parallel round's lines), reading the user's
 * caller IDs and local-presence setting once for all of them; one answer per number, in order.
 */
export async function chooseCallerIds(
  db: DbExecutor,
  userId: string,
  to: readonly (string | null)[],
  instanceDefault: string | null,
): Promise<(string | null)[]> {
  const callerIds = await findCallerIds(db, userId);
  const local = to.some(Boolean) && callerIds.length > 1 && (await localPresenceOf(db, userId));
  const places = callerIds.map((c) => ({
    e164: c.numberE164,
    isDefault: c.isDefault,
    place: placeOfNumber(c.numberE164),
  }));
  // The default comes first in the list (else the oldest), as findDefaultCallerId reads it.
  const fallback = callerIds[0]?.numberE164 ?? instanceDefault;
  return to.map((number) => {
    const nearest = local && number ? nearestCallerId(placeOfNumber(number), places) : null;
    return nearest ? nearest.callerId.e164 : fallback;
  });
}
