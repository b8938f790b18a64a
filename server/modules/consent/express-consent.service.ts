import { dayIn, FIRST_DAY_ZONE, usDay } from '#domain/time/zoned-time.ts';
import type { DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import { insertConsentEntry } from './consent-record.repository.ts';
import { insertExpressConsent, withdrawExpressConsent } from './express-consent.repository.ts';
import { findConsentSettings, findContactReachRows } from './reach-facts.repository.ts';

/**
 * "Record express consent": the contact agreed to calls and texts on a day, somewhere. NOT_FOUND when the contact is
 * not the user's; CONFLICT when a consent already stands (withdraw it first). The record says so.
 */
export async function giveExpressConsent(
  db: DbExecutor,
  userId: string,
  contactId: string,
  consent: { givenOn: string; source: string },
  now: Date,
): Promise<void> {
  const [row] = await findContactReachRows(db, userId, [contactId]);
  if (!row) throw new AppError('NOT_FOUND', 'Contact not found');
  // Today in the user's zone; without one, in the first zone on Earth to reach a day (no real today is refused).
  const zone = (await findConsentSettings(db, userId)).timeZone ?? FIRST_DAY_ZONE;
  if (consent.givenOn > dayIn(now, zone))
    throw new AppError('VALIDATION_FAILED', 'Consent cannot be given on a day still to come', {
      issues: [{ path: 'givenOn', message: 'Consent cannot be given on a day still to come' }],
    });
  if (!(await insertExpressConsent(db, userId, contactId, consent, now)))
    throw new AppError('CONFLICT', 'Express consent is already recorded for this contact: withdraw it first');
  await recordConsentChange(db, userId, { contactId, number: row.phone_e164 }, 'opted-in', consent, now);
}

/** "Withdraw consent": NOT_FOUND when none stands. The row stays, and the record says so. */
export async function withdrawConsent(
  db: DbExecutor,
  userId: string,
  contactId: string,
  now: Date,
): Promise<void> {
  const [row] = await findContactReachRows(db, userId, [contactId]);
  if (!row) throw new AppError('NOT_FOUND', 'Contact not found');
  const withdrawn = await withdrawExpressConsent(db, userId, contactId, now);
  if (!withdrawn) throw new AppError('NOT_FOUND', 'No express consent stands for this contact');
  const consent = { givenOn: withdrawn.given_on, source: withdrawn.source };
  await recordConsentChange(db, userId, { contactId, number: row.phone_e164 }, 'opted-out', consent, now);
}

/** The consent record's line for express consent given or withdrawn, in the words the contact page shows. */
function recordConsentChange(
  db: DbExecutor,
  userId: string,
  contact: { contactId: string; number: string | null },
  outcome: 'opted-in' | 'opted-out',
  consent: { givenOn: string; source: string },
  now: Date,
) {
  const reason =
    outcome === 'opted-in'
      ? `Express consent given ${usDay(consent.givenOn)} (${consent.source}) recorded`
      : `Express consent of ${usDay(consent.givenOn)} (${consent.source}) withdrawn`;
  return insertConsentEntry(
    db,
    userId,
    { ...contact, channel: 'call', outcome, code: 'express-consent', reason, facts: consent },
    now,
  );
}
