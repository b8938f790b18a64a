import type { DbExecutor } from '../../db/database.ts';

/** The express consent that stands for a contact (at most one), or undefined. */
export async function findStandingConsent(db: DbExecutor, userId: string, contactId: string) {
  return db
    .selectFrom('express_consents')
    .select(['given_on', 'source', 'recorded_at'])
    .where('user_id', '=', userId)
    .where('contact_id', '=', contactId)
    .where('withdrawn_at', 'is', null)
    .executeTakeFirst();
}

/** Records a contact's express consent; false when one already stands (the unique index decides under a race). */
export async function insertExpressConsent(
  db: DbExecutor,
  userId: string,
  contactId: string,
  consent: { givenOn: string; source: string },
  at: Date,
): Promise<boolean> {
  const row = await db
    .insertInto('express_consents')
    .values({
      user_id: userId,
      contact_id: contactId,
      given_on: consent.givenOn,
      source: consent.source,
      recorded_at: at,
    })
    .onConflict((oc) => oc.column('contact_id').where('withdrawn_at', 'is', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Withdraws the standing consent; the row stays for the record. Undefined when none stood. */
export async function withdrawExpressConsent(db: DbExecutor, userId: string, contactId: string, at: Date) {
  return db
    .updateTable('express_consents')
    .set({ withdrawn_at: at })
    .where('user_id', '=', userId)
    .where('contact_id', '=', contactId)
    .where('withdrawn_at', 'is', null)
    .returning(['given_on', 'source'])
    .executeTakeFirst();
}

/** The express consent that stands for a contact, as the page and the record show it. */
export function standingConsentOf(row: {
  consent_given_on: string | null;
  consent_source: string | null;
  consent_recorded_at: Date | null;
}) {
  return row.consent_given_on && row.consent_source && row.consent_recorded_at
    ? {
        givenOn: row.consent_given_on,
        source: row.consent_source,
        recordedAt: row.consent_recorded_at.toISOString(),
      }
    : null;
}
