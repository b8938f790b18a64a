import { z } from 'zod';
import { TZDate } from '@date-fns/tz';

/** Whether the JavaScript runtime knows this IANA zone (Europe/Paris, America/New_York, UTC). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const TimeZoneSchema = z
  .string()
  .trim()
  .min(1, 'Choose a time zone')
  .max(64, 'Unknown time zone')
  .refine(isTimeZone, 'Unknown time zone');

/** A calendar day, YYYY-MM-DD. */
export const DaySchema = z.iso.date('Choose a valid day');

/** The calendar day (YYYY-MM-DD) a moment falls on in a zone. */
export function dayIn(at: Date, timeZone: string): string {
  // en-CA writes dates as YYYY-MM-DD.
  return formatterFor(
    'day',
    timeZone,
    () => ({ year: 'numeric', month: '2-digit', day: '2-digit' }),
    'en-CA',
  ).format(at);
}

/**
 * The zone whose day starts last (UTC-12): a day is past there only when it is past everywhere on Earth. The server
 * judges days in it for a user who never chose a zone, so it never refuses a day still today where they are.
 */
export const LATEST_DAY_ZONE = 'Etc/GMT+12';

/** The zone whose day starts first (UTC+14): no day that is today anywhere is still to come there. */
export const FIRST_DAY_ZONE = 'Etc/GMT-14';

/** Whether the day a moment falls on, in a zone, is before today there (today is not past). */
export function isPastDay(at: Date, now: Date, timeZone: string): boolean {
  return dayIn(at, timeZone) < dayIn(now, timeZone);
}

/** A day (YYYY-MM-DD) as a US reader writes it: MM/DD/YYYY. */
export function usDay(day: string): string {
  const [y, m, d] = day.split('-');
  return `${m}/${d}/${y}`;
}

/**
 * Formatters kept per kind and zone: building an Intl.DateTimeFormat costs about a hundred times more than using
 * one, and the consent gate reads the local time of thousands of contacts at once.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(
  kind: string,
  timeZone: string,
  options: () => Intl.DateTimeFormatOptions,
  locale: string,
): Intl.DateTimeFormat {
  const key = `${kind} ${timeZone}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { ...options(), timeZone });
    formatters.set(key, formatter);
  }
  return formatter;
}

/** A function giving the hour (0 to 23) a moment falls on in a zone; build it once, use it for many moments. */
export function hourReader(timeZone: string): (at: Date) => number {
  const format = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', hourCycle: 'h23' });
  return (at) => Number(format.format(at)) % 24;
}

/** HH:mm of a moment in a zone (call time). */
export function timeIn(at: Date, timeZone: string): string {
  return formatterFor(
    'time',
    timeZone,
    () => ({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
    'en-GB',
  ).format(at);
}

/** The zones a user can choose from, the browser's or server's own list. */
export function knownTimeZones(): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

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
  return atMinuteIn(day, hour * 60, timeZone);
}

/**
 * A moment at a minute of a day (YYYY-MM-DD, minute 0 to 1439) in a zone. A wall time a clock change skips (2:30 on
 * a spring-forward night) lands just after the change.
 */
export function atMinuteIn(day: string, minute: number, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(new TZDate(y, m - 1, d, Math.floor(minute / 60), minute % 60, 0, timeZone).getTime());
}

/** The minute of the day (0 to 1439) a moment falls on in a zone. */
export function minuteOfDayIn(at: Date, timeZone: string): number {
  const [h, m] = timeIn(at, timeZone).split(':').map(Number) as [number, number];
  return (h % 24) * 60 + m;
}

/** The calendar day after a day (YYYY-MM-DD). */
export function nextDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/** A minute of the day as a clock reads it: 480 → '8:00', 1260 → '21:00'. */
export function clockOf(minute: number): string {
  return `${Math.floor(minute / 60)}:${String(minute % 60).padStart(2, '0')}`;
}

/** A moment's time of day in a zone as a person says it: '7:42 am', '12:05 pm'. */
export function spokenTimeIn(at: Date, timeZone: string): string {
  const minute = minuteOfDayIn(at, timeZone);
  const hour = Math.floor(minute / 60);
  const twelve = hour % 12 === 0 ? 12 : hour % 12;
  return `${twelve}:${String(minute % 60).padStart(2, '0')} ${hour < 12 ? 'am' : 'pm'}`;
}

/** The place a zone is named after: 'America/Denver' → 'Denver', 'America/North_Dakota/Center' → 'Center'. */
export function zonePlace(timeZone: string): string {
  return (timeZone.split('/').at(-1) ?? timeZone).replaceAll('_', ' ');
}
