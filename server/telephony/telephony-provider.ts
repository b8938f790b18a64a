import type { CallStatus } from '#domain/calls/call-status.ts';

/** A call handed to a provider: our call id travels in the status callback so events find their call. */
export type PlaceCallRequest = { callId: string; from: string; to: string };

/** One status event as the provider reports it (Twilio's fields; the simulator sends the same). */
export type StatusEvent = { providerCallId: string; status: CallStatus; durationSeconds: number | null };

/** The provider refused or could not place a call: its own words, which the browser translates (part 2 §8.3). */
export class ProviderError extends Error {}

/**
 * What calling needs from a telephony provider (ARCHITECTURE.md calling). Two implementations: the simulator, the
 * default, and Twilio. Status events come back through one webhook route, verified by the provider's own scheme.
 */
export type TelephonyProvider = {
  name: 'simulator' | 'twilio';
  placeCall: (request: PlaceCallRequest) => Promise<{ providerCallId: string }>;
  hangUp: (providerCallId: string) => Promise<void>;
  /** Whether a webhook request really comes from the provider (signature over its URL and body). */
  verifyWebhook: (request: {
    url: string;
    headers: Record<string, string | string[] | undefined>;
    body: Record<string, string>;
  }) => boolean;
  parseStatus: (body: Record<string, string>) => StatusEvent | null;
};

/** Provider statuses we know; anything else is ignored. */
export const PROVIDER_STATUSES: readonly CallStatus[] = [
  'queued',
  'initiated',
  'ringing',
  'in-progress',
  'completed',
  'busy',
  'no-answer',
  'failed',
  'canceled',
];

/** Twilio's status callback fields, shared by both providers. */
export function parseTwilioStyleStatus(body: Record<string, string>): StatusEvent | null {
  const status = body.CallStatus as CallStatus | undefined;
  if (!body.CallSid || !status || !PROVIDER_STATUSES.includes(status)) return null;
  const duration = Number(body.CallDuration);
  return {
    providerCallId: body.CallSid,
    status,
    durationSeconds: Number.isFinite(duration) && body.CallDuration !== undefined ? duration : null,
  };
}
