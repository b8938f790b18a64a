import type { DbExecutor } from '../../db/database.ts';

/** The day's calls and dispositions with their contacts (day-range queries). */
export async function findDay(db: DbExecutor, userId: string, from: Date, to: Date) {
  const calls = await db
    .selectFrom('calls')
    .leftJoin('contacts', 'contacts.id', 'calls.contact_id')
    .leftJoin('recordings as recording', (join) =>
      join.onRef('recording.call_id', '=', 'calls.id').on('recording.kind', 'in', ['voicemail', 'call']),
    )
    .select([
      'recording.id as recording_id',
      'recording.kind as recording_kind',
      'recording.duration_seconds as recording_seconds',
      'recording.created_at as recording_at',
      'calls.id',
      'calls.contact_id',
      'calls.to_number',
      'calls.from_number',
      'calls.direction',
      'calls.status',
      'calls.started_at',
      'calls.answered_at',
      'calls.duration_seconds',
      'calls.abandoned_at',
      'contacts.first_name',
      'contacts.last_name',
      'contacts.company',
    ])
    .where('calls.user_id', '=', userId)
    .where('calls.started_at', '>=', from)
    .where('calls.started_at', '<', to)
    .orderBy('calls.started_at', 'desc')
    .limit(5000)
    .execute();
  const dispositions = await db
    .selectFrom('call_dispositions')
    .leftJoin('contacts', 'contacts.id', 'call_dispositions.contact_id')
    .select([
      'call_dispositions.id',
      'call_dispositions.call_id',
      'call_dispositions.contact_id',
      'call_dispositions.disposition',
      'call_dispositions.is_qualified',
      'call_dispositions.called_at',
      'call_dispositions.call_duration',
      'contacts.first_name',
      'contacts.last_name',
      'contacts.company',
      'contacts.phone',
    ])
    .where('call_dispositions.user_id', '=', userId)
    .where('call_dispositions.called_at', '>=', from)
    .where('call_dispositions.called_at', '<', to)
    .orderBy('call_dispositions.called_at', 'desc')
    .limit(5000)
    .execute();
  return { calls, dispositions };
}
