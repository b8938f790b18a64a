import type { AnsweredBy } from '#domain/calls/answered-by.ts';
import { sql } from 'kysely';
import type { Call } from '#domain/calls/call.schema.ts';
import {
  CALL_STATUS_RANK,
  FINISHED_RANK,
  FINISHED_STATUSES,
  type CallDirection,
  type CallStatus,
  type TelephonyProviderName,
} from '#domain/calls/call-status.ts';
import type { DbExecutor } from '../../db/database.ts';
import { placeOfNumber } from '../../telephony/number-places.ts';
import { AppError } from '../../errors/app-error.ts';

export const CALL_COLUMNS = [
  'id',
  'contact_id',
  'request_id',
  'provider',
  'from_number',
  'to_number',
  'status',
  'error',
  'started_at',
  'answered_at',
  'ended_at',
  'duration_seconds',
  'answered_by',
  'abandoned_at',
  'direction',
  'recorded',
  'recording_disclosure',
  'voicemail_drop_name',
  'voicemail_dropped_at',
] as const;

type CallRow = {
  id: string;
  contact_id: string | null;
  request_id: string;
  provider: TelephonyProviderName;
  from_number: string;
  to_number: string;
  status: CallStatus;
  error: string | null;
  started_at: Date;
  answered_at: Date | null;
  ended_at: Date | null;
  duration_seconds: number | null;
  answered_by: AnsweredBy | null;
  abandoned_at: Date | null;
  direction: CallDirection;
  recorded: boolean;
  recording_disclosure: string | null;
  voicemail_drop_name: string | null;
  voicemail_dropped_at: Date | null;
};

export const toCall = (r: CallRow): Call => ({
  id: r.id,
  contactId: r.contact_id,
  requestId: r.request_id,
  provider: r.provider,
  from: r.from_number,
  to: r.to_number,
  status: r.status,
  error: r.error,
  startedAt: r.started_at.toISOString(),
  answeredAt: r.answered_at?.toISOString() ?? null,
  endedAt: r.ended_at?.toISOString() ?? null,
  durationSeconds: r.duration_seconds,
  answeredBy: r.answered_by,
  abandonedAt: r.abandoned_at?.toISOString() ?? null,
  // Where our number is: the caller ID a call went out from, or the number an incoming call came in to.
  fromPlace: placeOfNumber(r.direction === 'inbound' ? r.to_number : r.from_number).name,
  direction: r.direction,
  recorded: r.recorded,
  recordingDisclosure: r.recording_disclosure,
  voicemailLeft:
    r.voicemail_drop_name && r.voicemail_dropped_at
      ? { name: r.voicemail_drop_name, at: r.voicemail_dropped_at.toISOString() }
      : null,
});

/** A call a provider's recording report names, whoever's it is (the system actor: webhooks have no session). */
export async function findCallForRecording(db: DbExecutor, provider: TelephonyProviderName, id: string) {
  const call = await db
    .selectFrom('calls')
    .leftJoin('dial_rounds', 'dial_rounds.id', 'calls.round_id')
    .select([
      'calls.id',
      'calls.user_id',
      'calls.contact_id',
      'calls.from_number',
      'calls.direction',
      'calls.recorded',
      'calls.recording_disclosure',
      'calls.round_id',
      'dial_rounds.connected_call_id',
    ])
    .where('calls.id', '=', id)
    .where('calls.provider', '=', provider)
    .executeTakeFirst();
  if (!call) return undefined;
  const { round_id, connected_call_id, ...found } = call;
  // A line of a parallel round is recorded only if it was the one put through to the rep (decision 030).
  return { ...found, recorded: found.recorded && (round_id === null || connected_call_id === found.id) };
}

/**
 * The user's call. `lock: 'for no key update'` takes its row for the rest of the transaction, so a writer that must
 * also take the queue or the contact can take the call first (the order a Parallel round takes them: no deadlock).
 */
export async function findCall(
  db: DbExecutor,
  userId: string,
  id: string,
  options: { lock?: 'for no key update' } = {},
): Promise<Call | undefined> {
  let query = db.selectFrom('calls').select(CALL_COLUMNS).where('user_id', '=', userId).where('id', '=', id);
  if (options.lock) query = query.forNoKeyUpdate();
  const row = await query.executeTakeFirst();
  return row ? toCall(row) : undefined;
}

/** The user's call, or NOT_FOUND 'Call not found'. */
export async function getCall(
  db: DbExecutor,
  userId: string,
  id: string,
  options: { lock?: 'for no key update' } = {},
): Promise<Call> {
  const call = await findCall(db, userId, id, options);
  if (!call) throw new AppError('NOT_FOUND', 'Call not found');
  return call;
}

export async function findCallByRequestId(db: DbExecutor, userId: string, requestId: string) {
  const row = await db
    .selectFrom('calls')
    .select(CALL_COLUMNS)
    .where('user_id', '=', userId)
    .where('request_id', '=', requestId)
    .executeTakeFirst();
  return row ? toCall(row) : undefined;
}

export type NewCall = {
  userId: string;
  contactId: string | null;
  requestId: string;
  provider: TelephonyProviderName;
  /** The instance whose simulator will run the call; null for Twilio. */
  instanceId: string | null;
  from: string;
  to: string;
  now: Date;
  queueId: string | null;
  projectId: string | null;
  /** A line of a parallel round: the round, and the hold (walker) its contact is held under. */
  line?: { roundId: string; walker: string; number: number };
  /** The call is recorded, after this disclosure (null: none needed). */
  recording?: { disclosure: string | null };
};

export async function insertCall(db: DbExecutor, values: NewCall): Promise<Call> {
  return (await insertCalls(db, [values]))[0]!;
}

/** Several calls in one statement (a Parallel round's lines), returned in the order given. */
export async function insertCalls(db: DbExecutor, calls: readonly NewCall[]): Promise<Call[]> {
  if (calls.length === 0) return [];
  const rows = await db
    .insertInto('calls')
    .values(
      calls.map((values) => ({
        user_id: values.userId,
        contact_id: values.contactId,
        request_id: values.requestId,
        provider: values.provider,
        instance_id: values.instanceId,
        from_number: values.from,
        to_number: values.to,
        started_at: values.now,
        updated_at: values.now,
        queue_id: values.queueId,
        project_id: values.projectId,
        recorded: Boolean(values.recording),
        recording_disclosure: values.recording?.disclosure ?? null,
        round_id: values.line?.roundId ?? null,
        line_walker: values.line?.walker ?? null,
        line_no: values.line?.number ?? null,
        line_state: values.line ? ('ringing' as const) : null,
      })),
    )
    .returning(CALL_COLUMNS)
    .execute();
  // Each call's request id is its own (unique per user): the rows are matched back by it, whatever order they came in.
  const byRequest = new Map(rows.map((row) => [row.request_id, toCall(row)]));
  return calls.map((c) => byRequest.get(c.requestId)!);
}

export async function recordProviderAnswer(
  db: DbExecutor,
  userId: string,
  callId: string,
  result: { providerCallId: string } | { error: string },
  now: Date,
): Promise<Call> {
  const row = await db
    .updateTable('calls')
    .set(
      'error' in result
        ? {
            // A call canceled meanwhile (END CALL) keeps its state.
            status: sql`case when status = 'canceled' then status else 'failed' end`,
            error: result.error,
            ended_at: now,
            duration_seconds: 0,
            updated_at: now,
          }
        : {
            provider_call_id: result.providerCallId,
            status: sql`case when status = 'queued' then 'initiated' else status end`,
            updated_at: now,
          },
    )
    .where('user_id', '=', userId)
    .where('id', '=', callId)
    .returning(CALL_COLUMNS)
    .executeTakeFirstOrThrow();
  return toCall(row);
}

/**
 * END CALL: the user's call, locked. One the provider has not answered for yet (no provider id) is canceled at once.
 * Returns the provider id for the provider to hang up (null when there is none) and the instance whose simulator
 * runs it, or undefined when there is no such call.
 */
export async function cancelIfNotPlaced(
  db: DbExecutor,
  userId: string,
  callId: string,
  now: Date,
): Promise<{ providerCallId: string | null; instanceId: string | null; status: CallStatus } | undefined> {
  const row = await db
    .selectFrom('calls')
    .select(['provider_call_id', 'status', 'instance_id'])
    .where('user_id', '=', userId)
    .where('id', '=', callId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.provider_call_id)
    return { providerCallId: row.provider_call_id, instanceId: row.instance_id, status: row.status };
  if (!FINISHED_STATUSES.includes(row.status))
    await db
      .updateTable('calls')
      .set({
        status: 'canceled',
        error: 'Ended by the user',
        ended_at: now,
        duration_seconds: 0,
        updated_at: now,
      })
      .where('id', '=', callId)
      .execute();
  return { providerCallId: null, instanceId: row.instance_id, status: 'canceled' };
}

/**
 * A browser-originated call reaching our Voice URL (Twilio): takes the call this user's browser asked for, once.
 * Only a call still queued, with no provider call yet, and less than a minute old qualifies, so a replayed or late request
 * dials nothing.
 */
export async function claimBrowserCall(
  db: DbExecutor,
  callId: string,
  userId: string,
  now: Date,
): Promise<{ from: string; to: string; recording?: { disclosure: string | null } } | undefined> {
  const row = await db
    .updateTable('calls')
    .set({ status: 'initiated', updated_at: now })
    .where('id', '=', callId)
    .where('user_id', '=', userId)
    .where('provider', '=', 'twilio')
    .where('status', '=', 'queued')
    .where('provider_call_id', 'is', null)
    .where('started_at', '>', new Date(now.getTime() - 60_000))
    .returning(['from_number', 'to_number', 'recorded', 'recording_disclosure'])
    .executeTakeFirst();
  return (
    row && {
      from: row.from_number,
      to: row.to_number,
      ...(row.recorded && { recording: { disclosure: row.recording_disclosure } }),
    }
  );
}

/** The domain's status ranks (CALL_STATUS_RANK) as SQL rows: the one rule, written once, run by the database. */
const STATUS_RANK_ROWS = sql.join(
  Object.entries(CALL_STATUS_RANK).map(([status, n]) => sql`(${sql.lit(status)}, ${sql.lit(n)})`),
);
const FINAL = sql.lit(FINISHED_RANK);

/**
 * Applies a provider status event, only forward (decision 000; domain advanceStatus in SQL): the row is locked,
 * a status of lower rank or any event after a finished status changes nothing. Answer and end times are kept.
 *
 * Two statements on purpose: the first finds and locks the call; the second, with a snapshot taken after the lock
 * is held, reads its current status. In one statement, two events racing for a call that had no provider id yet
 * (both matched by our id) could leave the second one judged against the first one's stale status and lost.
 */
export async function applyStatusEvent(
  db: DbExecutor,
  event: {
    provider: string;
    /** Our id, from the callback URL: finds a call whose provider id is not stored yet. */
    callId: string | null;
    providerCallId: string;
    status: CallStatus;
    durationSeconds: number | null;
  },
  now: Date,
): Promise<{
  applied: boolean;
  id: string | null;
  userId: string | null;
  /** The parallel round the call is a line of (decision 026), if any. */
  roundId: string | null;
  orphan: boolean;
}> {
  const locked = await sql<{
    id: string;
    user_id: string;
    round_id: string | null;
    provider_call_id: string | null;
    status: CallStatus;
  }>`
    select c.id, c.user_id, c.round_id, c.provider_call_id, c.status from calls c
    where c.provider = ${event.provider}
      and (c.provider_call_id = ${event.providerCallId}
        or (c.id = ${event.callId}::uuid and c.provider_call_id is null))
    limit 1
    for update`.execute(db);
  const call = locked.rows[0];
  if (!call) return { applied: false, id: null, userId: null, roundId: null, orphan: false };
  const updated = await sql<{ id: string }>`
    with rank(status, n) as (values ${STATUS_RANK_ROWS})
    update calls c set
      provider_call_id = ${event.providerCallId},
      status = ${event.status},
      answered_at = case when ${event.status} = 'in-progress' then coalesce(c.answered_at, ${now}::timestamptz) else c.answered_at end,
      ended_at = case when (select n from rank where status = ${event.status}) = ${FINAL} then ${now}::timestamptz else c.ended_at end,
      duration_seconds = case when (select n from rank where status = ${event.status}) = ${FINAL}
        then coalesce(${event.durationSeconds}::int,
          extract(epoch from (${now}::timestamptz - coalesce(c.answered_at, ${now}::timestamptz)))::int)
        else c.duration_seconds end,
      updated_at = ${now}
    where c.id = ${call.id}
      and (select n from rank where status = c.status) < ${FINAL}
      and (select n from rank where status = ${event.status}) > (select n from rank where status = c.status)
    returning c.id`.execute(db);
  // A line of a parallel round released before the provider told us its id was ended at once; a person who picked it
  // up meanwhile was hung up on: answered and ended, which the round counts as abandoned (decision 026).
  if (
    updated.rows.length === 0 &&
    event.status === 'in-progress' &&
    call.status === 'canceled' &&
    call.round_id
  ) {
    const late = await sql<{ id: string }>`
      update calls set status = 'completed', answered_at = ${now}, duration_seconds = 0, updated_at = ${now}
      where id = ${call.id} and status = 'canceled' and answered_at is null
      returning id`.execute(db);
    if (late.rows.length > 0)
      return { applied: true, id: call.id, userId: call.user_id, roundId: call.round_id, orphan: false };
  }
  return {
    applied: updated.rows.length > 0,
    id: call.id,
    userId: call.user_id,
    roundId: call.round_id,
    // We gave up on this call before the provider told us its id (a timeout, or END CALL meanwhile), yet the
    // provider placed it and it is still going: it must be hung up.
    orphan:
      call.provider_call_id === null &&
      FINISHED_STATUSES.includes(call.status) &&
      !FINISHED_STATUSES.includes(event.status),
  };
}

/**
 * Who answered a call, as the provider's detection reports it: the first result stands (a repeated or late one
 * changes nothing). Found like a status event, by the provider's id or by ours from the callback URL.
 */
export async function recordAnsweredBy(
  db: DbExecutor,
  event: { provider: string; callId: string | null; providerCallId: string; answeredBy: AnsweredBy },
  now: Date,
): Promise<{ userId: string; id: string; roundId: string | null } | null> {
  const updated = await sql<{ id: string; user_id: string; round_id: string | null }>`
    update calls c set answered_by = ${event.answeredBy}, updated_at = ${now}
    where c.provider = ${event.provider}
      and (c.provider_call_id = ${event.providerCallId}
        or (c.id = ${event.callId}::uuid and c.provider_call_id is null))
      and c.answered_by is null
    returning c.id, c.user_id, c.round_id`.execute(db);
  const row = updated.rows[0];
  return row ? { id: row.id, userId: row.user_id, roundId: row.round_id } : null;
}

/** Closes a user's calls that never finished (Reset Call System), and releases the user's lock. */
export async function resetUserCalls(db: DbExecutor, userId: string, now: Date): Promise<number> {
  await db.deleteFrom('call_locks').where('user_id', '=', userId).execute();
  const result = await db
    .updateTable('calls')
    .set({ status: 'canceled', error: 'Reset by the user', ended_at: now, updated_at: now })
    .where('user_id', '=', userId)
    .where('status', 'not in', [...FINISHED_STATUSES])
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function findUnfinishedCalls(db: DbExecutor, before: Date, limit = 500) {
  return db
    .selectFrom('calls')
    .select(['id', 'status', 'updated_at'])
    .where('status', 'not in', [...FINISHED_STATUSES])
    .where('updated_at', '<', before)
    .orderBy('updated_at')
    .limit(limit)
    .execute();
}

/** Simulated calls still going on, with the instance whose simulator runs each (any user's: system actor). */
export async function findUnfinishedSimulatedCalls(db: DbExecutor, limit = 500) {
  return db
    .selectFrom('calls')
    .select(['id', 'status', 'instance_id'])
    .where('provider', '=', 'simulator')
    .where('status', 'not in', [...FINISHED_STATUSES])
    .where('instance_id', 'is not', null)
    .limit(limit)
    .execute();
}

export async function closeCall(db: DbExecutor, id: string, status: CallStatus, reason: string, now: Date) {
  await db
    .updateTable('calls')
    .set({ status, error: reason, ended_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', 'not in', [...FINISHED_STATUSES])
    .execute();
}

/**
 * One of the user's calls, locked for a voicemail drop (two clicks, or two tabs, take turns; the second sees the
 * first's drop).
 */
export async function lockCallForDrop(db: DbExecutor, userId: string, id: string) {
  return db
    .selectFrom('calls')
    .select([
      'id',
      'status',
      'provider_call_id',
      'contact_id',
      'to_number',
      'direction',
      'queue_id',
      'voicemail_dropped_at',
    ])
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** The call took a voicemail drop: its message's name and when. */
export async function markVoicemailDropped(db: DbExecutor, id: string, name: string, at: Date) {
  await db
    .updateTable('calls')
    .set({ voicemail_drop_name: name, voicemail_dropped_at: at })
    .where('id', '=', id)
    .execute();
}
