import { TZDate } from '@date-fns/tz';
import { dayIn } from '#domain/reports/time-zone.ts';

/** Today (YYYY-MM-DD) in a zone. */
export const todayIn = (timeZone: string) => dayIn(new Date(), timeZone);

/** When a day (YYYY-MM-DD) begins and ends in a zone: midnight to midnight, 23 or 25 hours on a clock change. */
export function dayBoundsIn(day: string, timeZone: string): { from: Date; to: Date } {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return {
    from: new Date(new TZDate(y, m - 1, d, timeZone).getTime()),
    to: new Date(new TZDate(y, m - 1, d + 1, timeZone).getTime()),
  };
}

/** A moment at a given hour of a day (YYYY-MM-DD) in a zone. */
export function atHourIn(day: string, hour: number, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(new TZDate(y, m - 1, d, hour, 0, 0, timeZone).getTime());
}
