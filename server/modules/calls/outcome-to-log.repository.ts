import type { DbExecutor } from '../../db/database.ts';

/**
 * A saved outcome with its contact, its call and its user's time zone, as a CRM of record logs it (HubSpot's call,
 * Salesforce's Task); undefined when gone.
 */
export async function findOutcomeToLog(db: DbExecutor, dispositionId: string) {
  return db
    .selectFrom('call_dispositions as d')
    .leftJoin('contacts as c', 'c.id', 'd.contact_id')
    .leftJoin('calls as k', 'k.id', 'd.call_id')
    .leftJoin('user_profiles as u', 'u.id', 'd.user_id')
    .select([
      'd.disposition',
      'd.notes',
      'd.called_at',
      'c.first_name',
      'c.last_name',
      'c.email',
      'c.phone_e164',
      'c.company',
      'c.title',
      'k.direction',
      'k.status',
      'k.from_number',
      'k.to_number',
      'k.duration_seconds',
      'u.time_zone',
    ])
    .where('d.id', '=', dispositionId)
    .executeTakeFirst();
}
