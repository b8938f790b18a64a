import { dayIn } from '#domain/time/zoned-time.ts';

export { atHourIn, dayBoundsIn } from '#domain/time/zoned-time.ts';

/** Today (YYYY-MM-DD) in a zone. */
export const todayIn = (timeZone: string) => dayIn(new Date(), timeZone);
