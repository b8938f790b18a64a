import { sql } from 'kysely';
import type { AnsweredBy } from '#domain/calls/answered-by.ts';
import { FINISHED_STATUSES, type CallStatus } from '#domain/calls/call-status.ts';
import type { LineState } from '#domain/dialer/dial-round.ts';
import type { Round } from '#domain/dialer/parallel-dialing.schema.ts';
import type { DbExecutor } from '../../db/database.ts';

/*
 * Rounds of parallel dialing (docs/decisions/026-parallel-dialing-pacing.md): the round rows, their lines (calls
 * carrying the round's id, the hold they were placed under and the line's state), and the counts the pacing reads.
 */

export async function insertRound(
  db: DbExecutor,
  round: {
    id: string;
    userId: string;
    queueId: string;
    walker: string;
    lines: number;
    why: string;
    now: Date;
  },
): Promise<string> {
  const row = await db
    .insertInto('dial_rounds')
    .values({
      id: round.id,
      user_id: round.userId,
      queue_id: round.queueId,
      walker: round.walker,
      lines: round.lines,
      why: round.why,
      created_at: round.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Whether the user has a call going on that is theirs to talk on, so a round never rings over a live call. Lines of
 * a round that are no longer the rep's (released, abandoned and hearing the message, a machine being hung up) do
 * not count: they end by themselves.
 */
export async function hasCallGoingOn(db: DbExecutor, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('calls')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', 'not in', [...FINISHED_STATUSES])
    .where((eb) =>
      eb.or([eb('line_state', 'is', null), eb('line_state', 'in', ['ringing', 'answered', 'connected'])]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export type LineRow = {
  id: string;
  contact_id: string | null;
  queue_id: string | null;
  line_walker: string | null;
  line_state: LineState | null;
  provider_call_id: string | null;
  from_number: string;
  status: CallStatus;
  answered_at: Date | null;
  answered_by: AnsweredBy | null;
  /** Recorded once put through to the rep (decision 030). */
  recorded: boolean;
};

/** A round, locked (every event of the round is applied one after the other), with its lines. */
export async function lockRound(
  db: DbExecutor,
  roundId: string,
): Promise<{
  round: { id: string; connectedCallId: string | null; settledAt: Date | null };
  lines: LineRow[];
} | null> {
  const round = await db
    .selectFrom('dial_rounds')
    .select(['id', 'connected_call_id', 'settled_at'])
    .where('id', '=', roundId)
    .forUpdate()
    .executeTakeFirst();
  if (!round) return null;
  const lines = await db
    .selectFrom('calls')
    .select([
      'id',
      'contact_id',
      'queue_id',
      'line_walker',
      'line_state',
      'provider_call_id',
      'from_number',
      'status',
      'answered_at',
      'answered_by',
      'recorded',
    ])
    .where('round_id', '=', roundId)
    .execute();
  return {
    round: { id: round.id, connectedCallId: round.connected_call_id, settledAt: round.settled_at },
    lines,
  };
}

/** Writes what an event changed: each line's new state, the connected call, and when the round settled. */
export async function storeRound(
  db: DbExecutor,
  roundId: string,
  changes: {
    lines: { id: string; state: LineState; before: LineState }[];
    connectedCallId: string | null;
    settledAt: Date | null;
    abandoned: string[];
  },
  now: Date,
): Promise<void> {
  for (const line of changes.lines)
    await db
      .updateTable('calls')
      .set({
        line_state: line.state,
        abandoned_at: changes.abandoned.includes(line.id) ? now : undefined,
        error:
          line.state === 'released'
            ? 'Released: another line reached you first'
            : line.state === 'abandoned'
              ? line.before === 'released'
                ? 'Abandoned: answered as another line reached you, and hung up before the message'
                : 'Abandoned: you were on another call; they heard the identification message'
              : undefined,
        updated_at: now,
      })
      .where('id', '=', line.id)
      .execute();
  await db
    .updateTable('dial_rounds')
    .set({ connected_call_id: changes.connectedCallId, settled_at: changes.settledAt })
    .where('id', '=', roundId)
    .execute();
}

/** A walker's latest round in a queue, with each line's contact, call and disposition, or null before the first. */
export async function findLatestRound(
  db: DbExecutor,
  userId: string,
  queueId: string,
  walker: string,
): Promise<Round | null> {
  // One statement: the round (the latest) and its lines, a row per line (one row with no line before any).
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('dial_rounds')
        .select(['id', 'created_at', 'why', 'connected_call_id', 'settled_at'])
        .where('user_id', '=', userId)
        .where('queue_id', '=', queueId)
        .where('walker', '=', walker)
        .orderBy('created_at', 'desc')
        .limit(1)
        .as('r'),
    )
    .leftJoin('calls as k', 'k.round_id', 'r.id')
    .leftJoin('contacts as c', 'c.id', 'k.contact_id')
    .select([
      'r.id as round_id',
      'r.created_at',
      'r.why',
      'r.connected_call_id',
      'r.settled_at',
      'k.id',
      'k.status',
      'k.answered_by',
      'k.line_state',
      'k.disposition',
      'k.error',
      'c.id as contact_id',
      'c.first_name',
      'c.last_name',
      'c.phone',
      'c.email',
      'c.company',
      'c.title',
    ])
    .orderBy('k.line_no')
    .execute();
  const round = rows[0];
  if (!round) return null;
  // A line whose contact is gone is not shown.
  const lines = rows.flatMap(({ id, status, contact_id, first_name, last_name, email, ...l }) =>
    id !== null &&
    status !== null &&
    contact_id !== null &&
    first_name !== null &&
    last_name !== null &&
    email !== null
      ? [{ ...l, id, status, contact_id, first_name, last_name, email }]
      : [],
  );
  return {
    id: round.round_id,
    createdAt: round.created_at.toISOString(),
    why: round.why,
    connectedCallId: round.connected_call_id,
    // A round whose calls all ended is over, even if its instance died before it could say so.
    settled: round.settled_at !== null || lines.every((l) => FINISHED_STATUSES.includes(l.status)),
    lines: lines.map((l) => ({
      callId: l.id,
      state: l.line_state ?? 'ringing',
      status: l.status,
      answeredBy: l.answered_by,
      disposition: l.disposition,
      error: l.error,
      contact: {
        id: l.contact_id,
        firstName: l.first_name,
        lastName: l.last_name,
        phone: l.phone,
        email: l.email,
        company: l.company,
        title: l.title,
      },
    })),
  };
}

/** The walker's round still ringing (not settled), if any, locked. */
export async function lockOpenRound(db: DbExecutor, userId: string, queueId: string, walker: string) {
  return db
    .selectFrom('dial_rounds')
    .select(['id', 'connected_call_id'])
    .where('user_id', '=', userId)
    .where('queue_id', '=', queueId)
    .where('walker', '=', walker)
    .where('settled_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

const DAY_MS = 86_400_000;
/** The answer rate is read from this many of the queue's latest calls. */
const RECENT_DIALS = 200;

/**
 * The counts the pacing rule needs for a queue, in one statement: live answers (a person, as detection said, or one
 * abandoned) and abandoned calls over 30 days and over the last 24 hours, how many of its latest calls reached a
 * person, and its lines not yet ended. `ownRound`: a round of the walker asking, left out of those lines (it settles
 * before their next round).
 */
export async function pacingCounts(
  db: DbExecutor,
  queueId: string,
  now: Date,
  ownRound: string | null = null,
) {
  const since30 = new Date(now.getTime() - 30 * DAY_MS);
  const since24 = new Date(now.getTime() - DAY_MS);
  // One statement: the pacing is read on every round and every look at the walker's state.
  const counted = await sql<{
    live30: number;
    abandoned30: number;
    live24: number;
    abandoned24: number;
    undecided: number;
    dials: number;
    live: number;
  }>`
    select count(*) filter (where answered_by = 'human' or abandoned_at is not null)::int as live30,
      count(*) filter (where abandoned_at is not null)::int as abandoned30,
      count(*) filter (where (answered_by = 'human' or abandoned_at is not null) and started_at > ${since24})::int as live24,
      count(*) filter (where abandoned_at is not null and started_at > ${since24})::int as abandoned24,
      count(*) filter (where line_state in ('ringing', 'answered', 'released')
        and status not in (${sql.join([...FINISHED_STATUSES])})
        and round_id is distinct from ${ownRound}::uuid)::int as undecided,
      r.dials, r.live
    from (select count(*)::int as dials, count(*) filter (where answered_by = 'human')::int as live
      from (select answered_by from calls where queue_id = ${queueId} and status in ('completed', 'busy', 'no-answer')
        order by started_at desc limit ${RECENT_DIALS}) latest) r
    left join calls on queue_id = ${queueId} and started_at > ${since30}
    group by r.dials, r.live`.execute(db);
  const c = counted.rows[0]!;
  return {
    last30Days: { liveAnswers: c.live30, abandoned: c.abandoned30 },
    last24Hours: { liveAnswers: c.live24, abandoned: c.abandoned24 },
    recent: { dials: c.dials, liveAnswers: c.live },
    undecidedLines: c.undecided,
  };
}
