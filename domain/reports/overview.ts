import { z } from 'zod';
import type { DayLog } from '../calls/call.schema.ts';
import { DaySchema, hourReader, TimeZoneSchema } from '../time/zoned-time.ts';

/**Recent Calls shows the first 10. */
export const RECENT_CALLS_SHOWN = 10;
/** Beyond the spec: the outcomes chart covers the last 7 or 30 days. */
export const OUTCOME_RANGES = [7, 30] as const;
/** The chart's key for calls that have no disposition. */
export const NO_DISPOSITION = 'none';
/** The chart's key for calls a parallel round abandoned (decision 026), counted apart. */
export const ABANDONED_OUTCOME = 'abandoned';

export const OverviewQuerySchema = z.object({ day: DaySchema, tz: TimeZoneSchema });
export const OutcomesQuerySchema = z.object({
  /** The last day of the range (today, in the user's zone). */
  day: DaySchema,
  tz: TimeZoneSchema,
  days: z.coerce
    .number()
    .refine((n) => (OUTCOME_RANGES as readonly number[]).includes(n), 'Choose 7 or 30 days')
    .default(7),
});

export const OverviewSchema = z.object({
  day: z.string(),
  timeZone: z.string(),
  totalCalls: z.number(),
  qualifiedLeads: z.number(),
  answeredCalls: z.number(),
  /** Each disposition of the day with its count, most frequent first. */
  dispositions: z.array(z.object({ disposition: z.string(), count: z.number() })),
  recentCalls: z.array(
    z.object({
      key: z.string(),
      contactId: z.string().nullable(),
      name: z.string().nullable(),
      company: z.string().nullable(),
      disposition: z.string().nullable(),
      at: z.string(),
    }),
  ),
  /** 24 entries, one per hour of the day in the user's zone. */
  hourly: z.array(z.object({ hour: z.number(), calls: z.number(), answered: z.number() })),
});
export type Overview = z.infer<typeof OverviewSchema>;

export const OutcomesSchema = z.object({
  days: z.array(
    z.object({
      day: z.string(),
      total: z.number(),
      /** Count per disposition, and NO_DISPOSITION for calls without one. */
      outcomes: z.record(z.string(), z.number()),
    }),
  ),
});
export type Outcomes = z.infer<typeof OutcomesSchema>;

/**
 * The Overview of one day (decision 000 "Answered"): the same entries and counting rules as the
 * Call Logs dashboard, so the two screens never disagree; the dispositions with their counts; the 10 most recent;
 * calls and answers per hour of the day in the user's zone.
 */
export function dayOverview(day: string, timeZone: string, log: DayLog): Overview {
  const counts = new Map<string, number>();
  for (const line of log.lines) {
    if (line.disposition) counts.set(line.disposition, (counts.get(line.disposition) ?? 0) + 1);
  }
  const hourOf = hourReader(timeZone);
  const hourly = Array.from({ length: 24 }, (_, hour) => ({ hour, calls: 0, answered: 0 }));
  for (const line of log.lines) {
    const bucket = hourly[hourOf(new Date(line.at))]!;
    bucket.calls += 1;
    if (line.answered) bucket.answered += 1;
  }
  const newestFirst = [...log.lines].sort((a, b) => b.at.localeCompare(a.at));
  return {
    day,
    timeZone,
    totalCalls: log.stats.total,
    qualifiedLeads: log.stats.qualified,
    answeredCalls: log.stats.answered,
    dispositions: [...counts]
      .map(([disposition, count]) => ({ disposition, count }))
      .sort((a, b) => b.count - a.count || a.disposition.localeCompare(b.disposition)),
    recentCalls: newestFirst.slice(0, RECENT_CALLS_SHOWN).map((line) => ({
      key: line.key,
      contactId: line.contactId,
      name: line.contactName,
      company: line.company,
      disposition: line.disposition,
      at: line.at,
    })),
    hourly,
  };
}

/**
 * A disposition as the reports show it: hyphens as spaces, each word capitalised ("Not
 * Interested"), "No disposition" for none.
 */
export function dispositionText(disposition: string | null): string {
  if (!disposition || disposition === NO_DISPOSITION) return 'No disposition';
  return disposition.replaceAll('-', ' ').replace(/\b\w/g, (c) => c.toUpperCase());
}

/** The days of a range ending on `lastDay`, oldest first (YYYY-MM-DD, calendar arithmetic, no zone involved). */
export function daysEnding(lastDay: string, count: number): string[] {
  const end = new Date(`${lastDay}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => {
    const d = new Date(end);
    d.setUTCDate(end.getUTCDate() - (count - 1 - i));
    return d.toISOString().slice(0, 10);
  });
}
