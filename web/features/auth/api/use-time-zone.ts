import { useSession } from './session.ts';

/** The browser's own zone. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The zone the user's days are drawn in (reports, callbacks): the one chosen in Settings → Profile, else the
 * browser's (decision 000 "Day boundaries").
 */
export function useTimeZone(): string {
  return useSession().data?.timeZone ?? browserTimeZone();
}
