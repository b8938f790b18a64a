import { z } from 'zod';

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
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

/** A function giving the hour (0 to 23) a moment falls on in a zone; build it once, use it for many moments. */
export function hourReader(timeZone: string): (at: Date) => number {
  const format = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', hourCycle: 'h23' });
  return (at) => Number(format.format(at)) % 24;
}

/** HH:mm of a moment in a zone (call time). */
export function timeIn(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
}

/** The zones a user can choose from, the browser's or server's own list. */
export function knownTimeZones(): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}
