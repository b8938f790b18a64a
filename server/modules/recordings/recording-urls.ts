import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a signed recording URL works: long enough for a provider to fetch a greeting during one call. */
export const SIGNED_URL_TTL_SECONDS = 15 * 60;

const signatureOf = (key: string, id: string, expires: number) =>
  createHmac('sha256', key).update(`recording:${id}:${expires}`).digest('base64url');

/** The browser's URL of a recording: it streams to its owner's session only. */
export const recordingUrl = (id: string) => `/api/recordings/${id}/audio`;

/**
 * A URL that streams one recording to whoever holds it until it expires, without a session: what a telephony
 * provider fetches a recorded greeting from (decision 029). Signed with the instance's key over the id and expiry.
 */
export function signedRecordingUrl(publicUrl: string, key: string, id: string, now: Date): string {
  const expires = Math.floor(now.getTime() / 1000) + SIGNED_URL_TTL_SECONDS;
  const query = new URLSearchParams({ expires: String(expires), signature: signatureOf(key, id, expires) });
  return `${publicUrl}/api/recordings/${id}/signed-audio?${query.toString()}`;
}

/** Whether a signed URL's expiry and signature hold for this recording now. */
export function verifySignedRecordingUrl(
  key: string,
  id: string,
  expires: number,
  signature: string,
  now: Date,
): boolean {
  if (expires * 1000 < now.getTime()) return false;
  const expected = Buffer.from(signatureOf(key, id, expires));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
