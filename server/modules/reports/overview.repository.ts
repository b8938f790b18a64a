import { sql } from 'kysely';
import { NO_DISPOSITION } from '#domain/reports/overview.ts';
import { AppError } from '../../errors/app-error.ts';
import type { DbExecutor } from '../../db/database.ts';

/** PostgreSQL's answer to a zone it does not know (22023 invalid_parameter_value). */
const isUnknownZone = (error: unknown) =>
  (error as { code?: string }).code === '22023' && /time zone/i.test((error as Error).message);

/**
 * The moments a run of days begins and ends in a zone: midnight of `firstDay` to midnight after `lastDay`, local
 * time, so a day with a daylight-saving change is 23 or 25 hours long, as it is for the user.
 */
export async function daysBounds(
  db: DbExecutor,
  firstDay: string,
  lastDay: string,
  timeZone: string,
): Promise<{ from: Date; to: Date }> {
  try {
    const { rows } = await sql<{ from: Date; to: Date }>`
      select (${firstDay}::date)::timestamp at time zone ${timeZone} as "from",
             (${lastDay}::date + 1)::timestamp at time zone ${timeZone} as "to"`.execute(db);
    return rows[0]!;
  } catch (error) {
    if (isUnknownZone(error)) throw new AppError('VALIDATION_FAILED', 'Unknown time zone');
    throw error;
  }
}

/**
 * Outcomes per day over a range (issue 13's outcomes chart), counted in SQL so 30 days of a busy user stay fast:
 * each call once, with the latest disposition saved for it (NO_DISPOSITION when none), plus each disposition saved
 * without a call in the range. Days are the user's calendar days. Unlike the day's call log, a disposition saved
 * without a link to its call is not merged with a call within 60 s: such dispositions come only from imported data.
 */
export async function findOutcomes(
  db: DbExecutor,
  userId: string,
  range: { from: Date; to: Date },
  timeZone: string,
): Promise<{ day: string; outcome: string; count: number }[]> {
  const { rows } = await sql<{ day: string; outcome: string; count: string }>`
    with calls_in as materialized (
      select id, started_at from calls
      where user_id = ${userId} and started_at >= ${range.from} and started_at < ${range.to}
    ),
    latest as (
      -- The disposition saved for each call (the latest); saved within a day of the call, as the dialer does.
      select distinct on (call_id) call_id, disposition from call_dispositions
      where user_id = ${userId} and call_id is not null
        and called_at >= ${range.from}::timestamptz - interval '1 day'
        and called_at < ${range.to}::timestamptz + interval '1 day'
      order by call_id, created_at desc
    ),
    entries as (
      select c.started_at as at, coalesce(l.disposition, ${NO_DISPOSITION}) as outcome
      from calls_in c left join latest l on l.call_id = c.id
      union all
      select d.called_at, d.disposition from call_dispositions d
      where d.user_id = ${userId} and d.called_at >= ${range.from} and d.called_at < ${range.to}
        and (d.call_id is null or d.call_id not in (select id from calls_in))
    )
    select to_char((at at time zone ${timeZone})::date, 'YYYY-MM-DD') as day, outcome, count(*) as count
    from entries group by 1, 2`.execute(db);
  return rows.map((r) => ({ day: r.day, outcome: r.outcome, count: Number(r.count) }));
}
