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
  await insertConsentEntry(
    db,
    userId,
    {
      contactId,
      number: row.phone_e164,
      channel: 'call',
      outcome: 'opted-in',
      code: 'express-consent',
      reason: `Express consent given ${usDay(consent.givenOn)} (${consent.source}) recorded`,
      facts: { givenOn: consent.givenOn, source: consent.source },
    },
    now,
  );
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
  await insertConsentEntry(
    db,
    userId,
    {
      contactId,
      number: row.phone_e164,
      channel: 'call',
      outcome: 'opted-out',
      code: 'express-consent',
      reason: `Express consent of ${usDay(withdrawn.given_on)} (${withdrawn.source}) withdrawn`,
      facts: { givenOn: withdrawn.given_on, source: withdrawn.source },
    },
    now,
  );
}
