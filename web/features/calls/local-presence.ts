import type { CallingSetup } from '#domain/calls/call.schema.ts';
import { formatPhoneForDisplay } from '#domain/contacts/phone.ts';

/**
 * Whether calls pick their caller ID by the contact (decision 027): local presence on, and several caller IDs. Then
 * the browser sends no caller ID and the server chooses the nearest.
 */
export const choosesNearestCallerId = (setup: CallingSetup | undefined): boolean =>
  setup !== undefined && setup.localPresence && setup.callerIds.length > 1;

/** The caller ID a call is placed from when the user picks none: null lets the server choose the nearest. */
export const callerIdToSend = (setup: CallingSetup | undefined): string | null =>
  choosesNearestCallerId(setup) ? null : (setup?.defaultFrom ?? null);

/** Where calls go out from, in a sentence's words. */
export function callingFromText(setup: CallingSetup): string {
  if (choosesNearestCallerId(setup)) return 'the caller ID nearest each contact (local presence)';
  return setup.defaultFrom ? formatPhoneForDisplay(setup.defaultFrom) : 'no caller ID yet';
}

/**
 * 'Calling from (303) 555-0101, Denver': the number a call went out from, and where it is when known; null for a user
 * with one caller ID or none, for whom it says nothing new. A call that came in says which number it came in to.
 */
export const callingFromLine = (
  call: { from: string; to: string; fromPlace: string | null; direction: 'inbound' | 'outbound' },
  setup: CallingSetup | undefined,
): string | null => {
  const place = call.fromPlace ? `, ${call.fromPlace}` : '';
  if (call.direction === 'inbound') return `Incoming call to ${formatPhoneForDisplay(call.to)}${place}`;
  return (setup?.callerIds.length ?? 0) > 1
    ? `Calling from ${formatPhoneForDisplay(call.from)}${place}`
    : null;
};
