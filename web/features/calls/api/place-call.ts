import type { TelephonyProviderName } from '#domain/calls/call-status.ts';
import { toast } from 'sonner';
import { CALL_DELAY_MS, checkCall, newRequestId, type GuardState } from '#domain/calls/call-guard.ts';
import { CallResponseSchema, type Call } from '#domain/calls/call.schema.ts';
import { normalizePhone } from '#domain/contacts/phone.ts';
import { apiFetch, ApiError } from '../../../lib/api-client.ts';

/** The browser's own duplicate checks, kept for this tab; the server checks again for all. */
const local: GuardState = { lockTakenAt: null, recentCalls: [] };

const GEO_PERMISSIONS_URL = 'https://console.twilio.com/us1/develop/voice/settings/geo-permissions';

/**
 * Translates a refused call into the spec's toast: verification, geo-permissions (the provider's
 * settings page opens after 1 s, on Twilio), trial account; the server's prevention answers as they are.
 */
export function toastCallError(error: unknown, provider: TelephonyProviderName): void {
  const message = error instanceof Error ? error.message : '';
  const code = error instanceof ApiError ? error.code : '';
  if (code === 'DUPLICATE_PREVENTED' || code === 'CONCURRENT_PREVENTED')
    return void toast.error('Call not placed', { description: message });
  if (code === 'DO_NOT_CALL') return void toast.error('Do not call', { description: message });
  if (code === 'CONSENT_REFUSED') return void toast.error('Call not placed', { description: message });
  // The contact was deleted meanwhile (or was never the user's).
  if (code === 'NOT_FOUND' && /contact/i.test(message))
    return void toast.error('Contact information is missing', { description: message });
  if (/not verified|unverified/i.test(message))
    return void toast.error('Number verification error', { description: message });
  if (/not authorized|geo-permissions/i.test(message)) {
    toast.error('Geographic permissions error', { description: message });
    if (provider === 'twilio') setTimeout(() => window.open(GEO_PERMISSIONS_URL, '_blank', 'noopener'), 1000);
    return;
  }
  if (/trial account/i.test(message))
    return void toast.error('Trial account limitation', { description: message });
  toast.error('Error initiating call', { description: message || 'Could not connect to calling service' });
}

/**
 * Click-to-call: the browser's checks first (lock, very recent, concurrent, pair
 * window), the 250 ms delay, an 8-character request id, then the server, which decides. The toasts are the spec's.
 */
export async function placeCall(
  target: { contactId?: string; to: string; from: string | null; queueId?: string },
  provider: TelephonyProviderName,
  /** 'browser': the browser phone connects the call (Twilio); the server places it otherwise. */
  via: 'server' | 'browser' = 'server',
): Promise<Call | null> {
  const to = normalizePhone(target.to);
  if (!to) {
    toast.error('Missing phone number', {
      description: target.to.trim()
        ? 'Contact does not have a valid phone number'
        : 'Contact does not have a phone number',
    });
    return null;
  }
  const verdict = checkCall({ to, from: target.from ?? '' }, local, new Date());
  if (!verdict.ok) {
    toast.error('Call not placed', { description: verdict.message });
    return null;
  }
  local.lockTakenAt = new Date();
  try {
    await new Promise((resolve) => setTimeout(resolve, CALL_DELAY_MS));
    const { call } = await apiFetch('/api/calls', {
      method: 'POST',
      body: {
        requestId: newRequestId(),
        ...(target.contactId ? { contactId: target.contactId } : { to }),
        ...(target.from ? { from: target.from } : {}),
        ...(via === 'browser' ? { via } : {}),
        ...(target.queueId ? { queueId: target.queueId } : {}),
      },
      schema: CallResponseSchema,
    });
    local.recentCalls = [
      ...local.recentCalls.filter((c) => Date.now() - c.startedAt.getTime() < 60_000),
      { to, from: call.from, startedAt: new Date(), active: false },
    ];
    // A typed number is a direct call; a contact's is the contact's call.
    toast.success(target.contactId ? 'Call initiated' : 'Direct call initiated', {
      description:
        provider === 'twilio'
          ? 'Your Twilio call has been initiated.'
          : 'Your call has been initiated on the built-in simulator.',
    });
    return call;
  } catch (error) {
    toastCallError(error, provider);
    return null;
  } finally {
    local.lockTakenAt = null;
  }
}
