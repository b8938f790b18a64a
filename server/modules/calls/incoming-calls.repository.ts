import { sql } from 'kysely';
import { newRequestId } from '#domain/calls/call-guard.ts';
import type { CalleeCandidate, IncomingCall } from '#domain/calls/incoming-call.ts';
import type { TelephonyProviderName } from '#domain/calls/call-status.ts';
import type { DbExecutor } from '../../db/database.ts';
import { placeOfNumber } from '../../telephony/number-places.ts';
import { CALL_COLUMNS, toCall } from './calls.repository.ts';

/**
 * Every active user who has `to` as a caller ID, with when they last called `from` from it; when `to` is the
 * instance's own caller ID, the users who called `from` from it (the system actor: the provider's webhook has no
 * session). Whether each has the caller as a contact is asked as that user.
 */
export async function usersWithNumber(
  db: DbExecutor,
  to: string,
  from: string,
  instanceNumber: string | null,
): Promise<Omit<CalleeCandidate, 'hasCallerAsContact'>[]> {
  const { rows } = await sql<{ user_id: string; number_added_at: Date | null; last_called: Date | null }>`
    with owners as (select user_id, created_at from caller_ids where number_e164 = ${to}),
    callers as (
      select user_id, max(started_at) as last_called from calls
      where from_number = ${to} and to_number = ${from} and direction = 'outbound'
      group by user_id
    )
    select coalesce(o.user_id, k.user_id) as user_id, o.created_at as number_added_at, k.last_called
    from owners o full join callers k on k.user_id = o.user_id
    join user_profiles p on p.id = coalesce(o.user_id, k.user_id)
    where p.role in ('user', 'admin') and p.deactivated_at is null
      and (o.user_id is not null or ${to}::text = ${instanceNumber}::text)`.execute(db);
  return rows.map((r) => ({
    userId: r.user_id,
    numberAddedAt: r.number_added_at,
    lastCalledCallerAt: r.last_called,
  }));
}

/** The user's contact with this number (E.164), the one changed last if several have it. */
export async function contactWithNumber(db: DbExecutor, userId: string, e164: string) {
  return db
    .selectFrom('contacts')
    .select('id')
    .where('user_id', '=', userId)
    .where('phone_e164', '=', e164)
    .orderBy('updated_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function contactName(db: DbExecutor, id: string) {
  return db
    .selectFrom('contacts')
    .select(['first_name', 'last_name'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Records a call that came in, ringing, once per provider call: the provider retrying its webhook finds the same
 * call. Answers the call's id and whether it still rings.
 */
export async function recordIncomingCall(
  db: DbExecutor,
  call: {
    userId: string;
    contactId: string | null;
    provider: TelephonyProviderName;
    providerCallId: string;
    from: string;
    to: string;
    /** This server, for a simulated call (it lives in its memory); null for a real provider's. */
    instanceId: string | null;
    /** The call is recorded, after this disclosure (null: none needed) (decision 030). */
    recording?: { disclosure: string | null } | undefined;
  },
  now: Date,
): Promise<{ id: string; status: string }> {
  const inserted = await sql<{ id: string }>`
    insert into calls (user_id, contact_id, request_id, provider, provider_call_id, from_number, to_number, status,
      direction, instance_id, recorded, recording_disclosure, started_at, updated_at)
    values (${call.userId}, ${call.contactId}, ${newRequestId()}, ${call.provider}, ${call.providerCallId},
      ${call.from}, ${call.to}, 'ringing', 'inbound', ${call.instanceId}, ${Boolean(call.recording)},
      ${call.recording?.disclosure ?? null}, ${now}, ${now})
    on conflict (provider, provider_call_id) where provider_call_id is not null do nothing
    returning id`.execute(db);
  if (inserted.rows[0]) return { id: inserted.rows[0].id, status: 'ringing' };
  const existing = await db
    .selectFrom('calls')
    .select(['id', 'status'])
    .where('provider', '=', call.provider)
    .where('provider_call_id', '=', call.providerCallId)
    .executeTakeFirstOrThrow();
  return existing;
}

/** An incoming call, found by our id from the signed callback URL (the system actor). */
export async function findIncomingCall(db: DbExecutor, provider: TelephonyProviderName, id: string) {
  return db
    .selectFrom('calls')
    .select(['id', 'user_id', 'provider_call_id', 'status', 'answered_at', 'contact_id', 'from_number'])
    .where('id', '=', id)
    .where('provider', '=', provider)
    .where('direction', '=', 'inbound')
    .executeTakeFirst();
}

/** One of the user's incoming calls (row security keeps it theirs), with its status. */
export async function findUsersIncomingCall(db: DbExecutor, userId: string, id: string) {
  return db
    .selectFrom('calls')
    .select(['status', 'provider_call_id'])
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('direction', '=', 'inbound')
    .executeTakeFirst();
}

/** Nobody answered: the call is missed, once (a retried webhook changes nothing). True the first time. */
export async function missIncomingCall(db: DbExecutor, id: string, status: string, now: Date) {
  const missed = await sql<{ id: string }>`
    update calls set status = ${status}, ended_at = ${now}, duration_seconds = 0, updated_at = ${now}
    where id = ${id} and direction = 'inbound' and status in ('queued', 'initiated', 'ringing')
    returning id`.execute(db);
  return missed.rows.length > 0;
}

/**
 * The first device of the user to pick up takes the call: it goes from ringing to in progress once, whichever
 * instance or tab asks first. Answers the call's status otherwise ('in-progress': taken by another device).
 */
export async function takeIncomingCall(
  db: DbExecutor,
  userId: string,
  id: string,
  now: Date,
): Promise<{ taken: true; providerCallId: string | null } | { taken: false; status: string | null }> {
  const taken = await sql<{ provider_call_id: string | null }>`
    update calls set status = 'in-progress', answered_at = ${now}, updated_at = ${now}
    where id = ${id} and user_id = ${userId} and direction = 'inbound' and status in ('queued', 'ringing')
    returning provider_call_id`.execute(db);
  if (taken.rows[0]) return { taken: true, providerCallId: taken.rows[0].provider_call_id };
  const call = await db
    .selectFrom('calls')
    .select('status')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('direction', '=', 'inbound')
    .executeTakeFirst();
  return { taken: false, status: call?.status ?? null };
}

/**
 * The user's calls ringing now, with the screen-pop: the contact whose number calls, their last disposition and its
 * notes (else the contact's own notes). A call still ringing after twice the ring time is not shown (its end was
 * lost; the stale-call janitor closes it).
 */
export async function ringingIncomingCalls(
  db: DbExecutor,
  userId: string,
  now: Date,
  ringSeconds: number,
): Promise<IncomingCall[]> {
  const { rows } = await sql<
    Parameters<typeof toCall>[0] & {
      k_id: string | null;
      k_first: string | null;
      k_last: string | null;
      k_company: string | null;
      k_notes: string | null;
      k_last_call_at: Date | null;
      d_disposition: string | null;
      d_notes: string | null;
    }
  >`
    select ${sql.join(CALL_COLUMNS.map((c) => sql.ref(`c.${c}`)))},
      k.id as k_id, k.first_name as k_first, k.last_name as k_last, k.company as k_company, k.notes as k_notes,
      k.last_call_at as k_last_call_at, d.disposition as d_disposition, d.notes as d_notes
    from calls c
    left join contacts k on k.id = c.contact_id and k.user_id = c.user_id
    left join lateral (
      select disposition, notes from call_dispositions
      where contact_id = k.id and user_id = c.user_id order by called_at desc limit 1
    ) d on true
    where c.user_id = ${userId} and c.direction = 'inbound' and c.status in ('queued', 'ringing')
      and c.started_at > ${new Date(now.getTime() - 2 * ringSeconds * 1000)}
    order by c.started_at`.execute(db);
  return rows.map((r) => ({
    call: toCall(r),
    contact: r.k_id
      ? {
          id: r.k_id,
          name: `${r.k_first ?? ''} ${r.k_last ?? ''}`.trim(),
          company: r.k_company,
          lastDisposition: r.d_disposition,
          lastNotes: r.d_notes ?? r.k_notes,
          lastCalledAt: r.k_last_call_at?.toISOString() ?? null,
        }
      : null,
    callerPlace: placeOfNumber(r.from_number).name,
  }));
}

/**
 * The user's missed calls to return, one line per number, newest first: missed incoming calls since `since` that
 * nobody marked done, from a number the user has not called since, nor talked to on a later incoming call; with how
 * many calls from the number were missed, the contact, and the newest voicemail left on them.
 */
export async function findMissedCallsToReturn(db: DbExecutor, userId: string, since: Date) {
  const { rows } = await sql<{
    id: string;
    from_number: string;
    started_at: Date;
    missed: string;
    contact_id: string | null;
    first_name: string | null;
    last_name: string | null;
    company: string | null;
    voicemail_id: string | null;
    voicemail_seconds: string | null;
    voicemail_at: Date | null;
  }>`
    with missed as (
      select m.id, m.from_number, m.contact_id, m.started_at,
        count(*) over (partition by m.from_number) as missed,
        row_number() over (partition by m.from_number order by m.started_at desc, m.id) as n
      from calls m
      where m.user_id = ${userId} and m.direction = 'inbound' and m.status in ('no-answer', 'busy')
        and m.missed_cleared_at is null and m.started_at >= ${since}
        and not exists (select 1 from calls o where o.user_id = m.user_id and o.started_at > m.started_at
          and ((o.direction = 'outbound' and o.to_number = m.from_number)
            or (o.direction = 'inbound' and o.from_number = m.from_number and o.answered_at is not null)))
    )
    select m.id, m.from_number, m.started_at, m.missed, c.id as contact_id, c.first_name, c.last_name, c.company,
      v.id as voicemail_id, v.duration_seconds as voicemail_seconds, v.created_at as voicemail_at
    from missed m
    left join contacts c on c.id = m.contact_id
    left join lateral (
      select r.id, r.duration_seconds, r.created_at from recordings r
      join missed mm on mm.id = r.call_id and mm.from_number = m.from_number
      where r.kind = 'voicemail'
      order by r.created_at desc
      limit 1
    ) v on true
    where m.n = 1
    order by m.started_at desc
    limit 100`.execute(db);
  return rows;
}

/**
 * Marks a missed call done, with every earlier missed call from the same number: the number leaves the user's list.
 * False when the call is not one of the user's missed calls still on it.
 */
export async function clearMissedCalls(db: DbExecutor, userId: string, callId: string, now: Date) {
  const { rows } = await sql<{ id: string }>`
    update calls m set missed_cleared_at = ${now}, updated_at = ${now}
    from calls picked
    where picked.id = ${callId} and picked.user_id = ${userId} and picked.direction = 'inbound'
      and m.user_id = ${userId} and m.direction = 'inbound' and m.status in ('no-answer', 'busy')
      and m.missed_cleared_at is null and m.from_number = picked.from_number and m.started_at <= picked.started_at
    returning m.id`.execute(db);
  return rows.length > 0;
}
