import { recordingUrl } from '../recordings/public.ts';
import type { DbExecutor } from '../../db/database.ts';
import type { DispositionRecord } from '#domain/calls/call.schema.ts';
import { CALL_COLUMNS, toCall } from './calls.repository.ts';

/** The columns a disposition is read with (toDisposition), wherever one is returned. */
export const DISPOSITION_COLUMNS = [
  'id',
  'call_id',
  'contact_id',
  'disposition',
  'notes',
  'is_qualified',
  'callback_date',
  'called_at',
  'call_duration',
  'queue_id',
] as const;

export const toDisposition = (r: {
  id: string;
  call_id: string | null;
  contact_id: string | null;
  disposition: string;
  notes: string | null;
  is_qualified: boolean;
  callback_date: Date | null;
  called_at: Date;
  call_duration: number | null;
  queue_id: string | null;
}): DispositionRecord => ({
  id: r.id,
  callId: r.call_id,
  contactId: r.contact_id,
  disposition: r.disposition,
  notes: r.notes,
  isQualified: r.is_qualified,
  callbackDate: r.callback_date?.toISOString() ?? null,
  calledAt: r.called_at.toISOString(),
  callDurationSeconds: r.call_duration,
  queueId: r.queue_id,
});

/** A saved disposition; qualified marks it is_qualified (the Qualified Leads tab reads that flag). */
export async function insertDisposition(
  db: DbExecutor,
  userId: string,
  d: {
    contactId: string;
    callId: string | null;
    disposition: string;
    notes: string | null;
    qualification: string;
    callbackDate: Date | null;
    callDurationSeconds: number | null;
    calledAt: Date;
    queueId: string | null;
  },
): Promise<DispositionRecord> {
  const row = await db
    .insertInto('call_dispositions')
    .values({
      user_id: userId,
      contact_id: d.contactId,
      call_id: d.callId,
      disposition: d.disposition,
      notes: d.notes,
      is_qualified: d.disposition === 'qualified',
      qualification: d.qualification,
      callback_date: d.callbackDate,
      call_duration: d.callDurationSeconds,
      called_at: d.calledAt,
      queue_id: d.queueId,
    })
    .returning(DISPOSITION_COLUMNS)
    .executeTakeFirstOrThrow();
  return toDisposition(row);
}

/** The call keeps the notes saved with its disposition ( call record), so reports can list them. */
export async function recordCallNotes(db: DbExecutor, callId: string, notes: string | null): Promise<void> {
  await db.updateTable('calls').set({ notes }).where('id', '=', callId).execute();
}

export async function findContactCalling(db: DbExecutor, userId: string, contactId: string) {
  const calls = await db
    .selectFrom('calls')
    .select(CALL_COLUMNS)
    .where('user_id', '=', userId)
    .where('contact_id', '=', contactId)
    .orderBy('started_at', 'desc')
    .limit(100)
    .execute();
  const dispositions = await db
    .selectFrom('call_dispositions')
    .select(DISPOSITION_COLUMNS)
    .where('user_id', '=', userId)
    .where('contact_id', '=', contactId)
    .orderBy('called_at', 'desc')
    .limit(100)
    .execute();
  const recordings = await db
    .selectFrom('recordings')
    .select(['id', 'call_id', 'kind', 'duration_seconds', 'created_at'])
    .where('user_id', '=', userId)
    .where('contact_id', '=', contactId)
    .where('kind', 'in', ['voicemail', 'call'])
    .orderBy('created_at', 'desc')
    .limit(100)
    .execute();
  return {
    calls: calls.map(toCall),
    dispositions: dispositions.map(toDisposition),
    recordings: recordings.map((v) => ({
      callId: v.call_id ?? '',
      kind: v.kind === 'call' ? ('call' as const) : ('voicemail' as const),
      recording: {
        id: v.id,
        durationSeconds: Number(v.duration_seconds),
        url: recordingUrl(v.id),
        createdAt: v.created_at.toISOString(),
      },
    })),
  };
}
