import { sql } from 'kysely';
import type { DbExecutor } from '../../db/database.ts';

/**
 * What the gate reads of contacts, in one query for any number of them: the number and address, the contact's own
 * zone and state, the opt-outs that name them (do-not-call, a STOP from the number for everyone or for this user, an
 * unsubscribe of the address) and the express consent that stands.
 */
export async function findContactReachRows(db: DbExecutor, userId: string, contactIds: string[]) {
  if (contactIds.length === 0) return [];
  return db
    .selectFrom('contacts as c')
    .leftJoin('do_not_call as d', (join) =>
      join.onRef('d.user_id', '=', 'c.user_id').onRef('d.number_e164', '=', 'c.phone_e164'),
    )
    .leftJoin('email_unsubscribes as u', (join) =>
      join.onRef('u.user_id', '=', 'c.user_id').onRef('u.email', '=', 'c.email_key'),
    )
    .leftJoin('express_consents as e', (join) =>
      join.onRef('e.contact_id', '=', 'c.id').on('e.withdrawn_at', 'is', null),
    )
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('sms_opt_outs as o')
          .select(['o.created_at', 'o.keyword'])
          .whereRef('o.phone', '=', 'c.phone_e164')
          .where((w) => w.or([w('o.user_id', 'is', null), w('o.user_id', '=', userId)]))
          .orderBy('o.created_at')
          .limit(1)
          .as('o'),
      (join) => join.onTrue(),
    )
    .select([
      'c.id',
      sql<string>`trim(c.first_name || ' ' || c.last_name)`.as('name'),
      'c.phone',
      'c.phone_e164',
      'c.email',
      'c.time_zone',
      'c.state',
      'd.added_at as do_not_call_at',
      'o.created_at as opted_out_at',
      'o.keyword as opt_out_keyword',
      'u.created_at as unsubscribed_at',
      'e.given_on as consent_given_on',
      'e.source as consent_source',
      'e.recorded_at as consent_recorded_at',
    ])
    .where('c.user_id', '=', userId)
    .where('c.id', '=', sql<string>`any(${contactIds}::uuid[])`)
    .execute();
}

/** The same opt-outs for a number typed into the dialer (no contact). */
export async function findNumberOptOuts(db: DbExecutor, userId: string, e164: string) {
  const doNotCall = await db
    .selectFrom('do_not_call')
    .select('added_at')
    .where('user_id', '=', userId)
    .where('number_e164', '=', e164)
    .executeTakeFirst();
  const optOut = await db
    .selectFrom('sms_opt_outs')
    .select(['created_at', 'keyword'])
    .where('phone', '=', e164)
    .where((w) => w.or([w('user_id', 'is', null), w('user_id', '=', userId)]))
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  return {
    do_not_call_at: doNotCall?.added_at ?? null,
    opted_out_at: optOut?.created_at ?? null,
    opt_out_keyword: optOut?.keyword ?? null,
  };
}

/** Calls the user placed to each number since a moment (the state limits' 24 hours); calls never placed aside. */
export async function countCallsSince(
  db: DbExecutor,
  userId: string,
  numbers: string[],
  since: Date,
): Promise<Map<string, number>> {
  if (numbers.length === 0) return new Map();
  const rows = await db
    .selectFrom('calls')
    .select(['to_number', (eb) => eb.fn.countAll<string>().as('n')])
    .where('user_id', '=', userId)
    .where('to_number', '=', sql<string>`any(${numbers}::text[])`)
    .where('started_at', '>', since)
    .where('status', 'not in', ['canceled', 'failed'])
    .groupBy('to_number')
    .execute();
  return new Map(rows.map((r) => [r.to_number, Number(r.n)]));
}

/**
 * The numbers whose calls a dialer abandoned since a moment, with the latest time: the user's few abandoned calls,
 * read through the partial index on abandoned calls whatever the number of contacts being decided.
 */
export async function findAbandonedSince(
  db: DbExecutor,
  userId: string,
  since: Date,
): Promise<Map<string, Date>> {
  const rows = await db
    .selectFrom('calls')
    .select(['to_number', (eb) => eb.fn.max('abandoned_at').as('at')])
    .where('user_id', '=', userId)
    .where('abandoned_at', '>', since)
    .groupBy('to_number')
    .execute();
  return new Map(rows.map((r) => [r.to_number, r.at as Date]));
}

/** The user's consent settings and their zone; defaults when they never chose. */
export async function findConsentSettings(db: DbExecutor, userId: string) {
  const row = await db
    .selectFrom('user_profiles as p')
    .leftJoin('consent_settings as s', 's.user_id', 'p.id')
    .select(['p.time_zone', 's.window_from', 's.window_to', 's.unknown_local_time'])
    .where('p.id', '=', userId)
    .executeTakeFirst();
  return {
    timeZone: row?.time_zone ?? null,
    window:
      row?.window_from != null && row.window_to != null ? { from: row.window_from, to: row.window_to } : null,
    unknownLocalTime: row?.unknown_local_time ?? ('block' as const),
  };
}

/** The user chooses their calling window (null: the law's) and what happens to contacts of unknown local time. */
export async function saveConsentSettings(
  db: DbExecutor,
  userId: string,
  settings: { window: { from: number; to: number } | null; unknownLocalTime: 'allow' | 'block' },
): Promise<void> {
  const values = {
    window_from: settings.window?.from ?? null,
    window_to: settings.window?.to ?? null,
    unknown_local_time: settings.unknownLocalTime,
    updated_at: new Date(),
  };
  await db
    .insertInto('consent_settings')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
}
