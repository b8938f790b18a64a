import { sql } from 'kysely';
import type { DbExecutor } from '../../db/database.ts';

export type RecordingRow = {
  id: string;
  user_id: string;
  kind: 'voicemail' | 'greeting' | 'call' | 'drop';
  storage_key: string;
  content_type: string;
  size_bytes: number;
  duration_seconds: number;
  created_at: Date;
};

/** One recording of the acting user (row security hides everyone else's), or undefined. */
export async function findRecording(db: DbExecutor, id: string): Promise<RecordingRow | undefined> {
  const row = await db
    .selectFrom('recordings')
    .select([
      'id',
      'user_id',
      'kind',
      'storage_key',
      'content_type',
      'size_bytes',
      'duration_seconds',
      'created_at',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
  return (
    row && { ...row, size_bytes: Number(row.size_bytes), duration_seconds: Number(row.duration_seconds) }
  );
}

/**
 * Marks a file about to be stored as one to delete after `at` unless its recording is saved by then: a writer that
 * dies between storing the file and recording it leaves no file behind for good.
 */
export async function holdFileForDeletion(db: DbExecutor, key: string, at: Date): Promise<void> {
  await db.insertInto('file_deletions').values({ storage_key: key, queued_at: at }).execute();
}

/** A file held for deletion is not wanted after all: its deletion falls due now. */
export async function deleteFileNow(db: DbExecutor, key: string): Promise<void> {
  await db
    .updateTable('file_deletions')
    .set({ queued_at: new Date() })
    .where('storage_key', '=', key)
    .execute();
}

/** The file's recording is saved: it is kept. */
export async function keepFile(db: DbExecutor, key: string): Promise<void> {
  await db.deleteFrom('file_deletions').where('storage_key', '=', key).execute();
}

export type NewRecording = {
  userId: string;
  kind: 'voicemail' | 'greeting' | 'call' | 'drop';
  callId: string | null;
  contactId: string | null;
  storageKey: string;
  contentType: string;
  sizeBytes: number;
  durationSeconds: number;
  providerRecordingId: string | null;
  createdAt: Date;
};

/** Saves a stored file's recording; a call's second voicemail is refused (returns null: one per call). */
export async function insertRecording(db: DbExecutor, recording: NewRecording): Promise<string | null> {
  const { rows } = await sql<{ id: string }>`
    insert into recordings (user_id, kind, call_id, contact_id, storage_key, content_type, size_bytes,
      duration_seconds, provider_recording_id, created_at)
    values (${recording.userId}, ${recording.kind}, ${recording.callId}, ${recording.contactId},
      ${recording.storageKey}, ${recording.contentType}, ${recording.sizeBytes}, ${recording.durationSeconds},
      ${recording.providerRecordingId}, ${recording.createdAt})
    on conflict (call_id, kind) where call_id is not null do nothing
    returning id`.execute(db);
  return rows[0]?.id ?? null;
}

/** Whether a call already has its voicemail, or its recording. */
export async function callHasRecording(
  db: DbExecutor,
  callId: string,
  kind: 'voicemail' | 'call',
): Promise<boolean> {
  const row = await db
    .selectFrom('recordings')
    .select('id')
    .where('call_id', '=', callId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return Boolean(row);
}

/** Whether the user's calls are recorded, and how long recordings are kept (the defaults with no row). */
export async function findRecordingSettings(db: DbExecutor, userId: string) {
  const row = await db
    .selectFrom('recording_settings')
    .select(['record_calls', 'retention_days'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return { recordCalls: row?.record_calls ?? false, retentionDays: row?.retention_days ?? 90 };
}

export async function saveRecordingSettings(
  db: DbExecutor,
  userId: string,
  settings: { recordCalls: boolean; retentionDays: number },
  now: Date,
) {
  const values = {
    record_calls: settings.recordCalls,
    retention_days: settings.retentionDays,
    updated_at: now,
  };
  await db
    .insertInto('recording_settings')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
}

/**
 * Deletes up to `limit` voicemails and call recordings (never greetings or voicemail-drop messages, which their
 * owner keeps until they delete them) older than their owner's retention (90 days without a
 * setting), oldest first from `after` (the last batch's newest: the scan never walks back over what it deleted);
 * their files follow through the deletion queue. Returns how many were deleted and the newest of them.
 */
export async function deleteExpiredRecordings(
  db: DbExecutor,
  now: Date,
  limit: number,
  after: Date | null,
): Promise<{ deleted: number; newest: Date | null }> {
  const { rows } = await sql<{ n: string; newest: Date | null }>`
    with expired as (
      select r.id, r.created_at from recordings r
      left join recording_settings s on s.user_id = r.user_id
      where r.kind <> 'greeting' and r.kind <> 'drop'
        and r.created_at >= ${after ?? new Date(0)}
        and r.created_at < ${now}::timestamptz - make_interval(days => coalesce(s.retention_days, 90))
      order by r.created_at
      limit ${limit}
    ), gone as (delete from recordings where id in (select id from expired) returning created_at)
    select count(*) as n, max(created_at) as newest from gone`.execute(db);
  return { deleted: Number(rows[0]?.n ?? 0), newest: rows[0]?.newest ?? null };
}

/** Files whose deletion is due, oldest first (the system's job). */
export async function dueFileDeletions(db: DbExecutor, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('file_deletions')
    .select('storage_key')
    .where('queued_at', '<=', now)
    .orderBy('queued_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.storage_key);
}

/** When the next deletion held for later falls due, if any. */
export async function nextFileDeletion(db: DbExecutor): Promise<Date | null> {
  const row = await db
    .selectFrom('file_deletions')
    .select((eb) => eb.fn.min('queued_at').as('next'))
    .executeTakeFirst();
  return row?.next ? new Date(row.next) : null;
}

export async function forgetFileDeletions(db: DbExecutor, keys: readonly string[]): Promise<void> {
  if (keys.length > 0) await db.deleteFrom('file_deletions').where('storage_key', 'in', keys).execute();
}

/** The user's greeting: the written text (null: the default) and the recorded one, if any. */
export async function findGreeting(db: DbExecutor, userId: string) {
  return db
    .selectFrom('voicemail_greetings as g')
    .leftJoin('recordings as r', 'r.id', 'g.recording_id')
    .select(['g.greeting_text', 'r.id as recording_id', 'r.duration_seconds', 'r.created_at'])
    .where('g.user_id', '=', userId)
    .executeTakeFirst();
}

export async function saveGreetingText(db: DbExecutor, userId: string, text: string | null, now: Date) {
  await db
    .insertInto('voicemail_greetings')
    .values({ user_id: userId, greeting_text: text, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ greeting_text: text, updated_at: now }))
    .execute();
}

/** Sets (or clears) the recorded greeting; the one it replaces is deleted, and its file with it. */
export async function setGreetingRecording(
  db: DbExecutor,
  userId: string,
  recordingId: string | null,
  now: Date,
) {
  const previous = await db
    .selectFrom('voicemail_greetings')
    .select('recording_id')
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  await db
    .insertInto('voicemail_greetings')
    .values({ user_id: userId, recording_id: recordingId, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ recording_id: recordingId, updated_at: now }))
    .execute();
  if (previous?.recording_id && previous.recording_id !== recordingId)
    await db.deleteFrom('recordings').where('id', '=', previous.recording_id).execute();
}
