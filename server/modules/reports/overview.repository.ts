import { sql } from 'kysely';
import { ABANDONED_OUTCOME, NO_DISPOSITION } from '#domain/reports/overview.ts';
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
 * Outcomes per day over a range (outcomes chart), counted in SQL so 30 days of a busy user stay fast:
 * each call once, with the latest disposition saved for it (kept on the call, migration 0022; NO_DISPOSITION when
 * none, ABANDONED_OUTCOME for a call a parallel round abandoned), plus each disposition saved without a call. Days are the user's calendar days. Unlike the day's call log,
 * a disposition saved without a link to its call is not merged with a call within 60 s: such dispositions come only
 * from imported data.
 */
export async function findOutcomes(
  db: DbExecutor,
  userId: string,
  range: { from: Date; to: Date },
  timeZone: string,
): Promise<{ day: string; outcome: string; count: number }[]> {
  // Counted per local day first, the day written out once per group.
  const { rows } = await sql<{ day: string; outcome: string; count: string }>`
    select to_char(day, 'YYYY-MM-DD') as day, outcome, count from (select (started_at at time zone ${timeZone})::date as day, coalesce(disposition, case when abandoned_at is not null then ${ABANDONED_OUTCOME} else ${NO_DISPOSITION} end) as outcome,
        count(*) as count
      from calls
      where user_id = ${userId} and started_at >= ${range.from} and started_at < ${range.to}
      group by 1, 2
      union all
      select (called_at at time zone ${timeZone})::date, disposition, count(*)
      from call_dispositions
      where user_id = ${userId} and call_id is null and called_at >= ${range.from} and called_at < ${range.to}
      group by 1, 2) counted`.execute(db);
  // A day and outcome can come from both halves: their counts add up.
  const merged = new Map<string, { day: string; outcome: string; count: number }>();
  for (const r of rows) {
    const key = `${r.day}|${r.outcome}`;
    const seen = merged.get(key);
    if (seen) seen.count += Number(r.count);
    else merged.set(key, { day: r.day, outcome: r.outcome, count: Number(r.count) });
  }
  return [...merged.values()];
}
