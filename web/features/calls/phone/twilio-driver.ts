import type { Call as TwilioCall, Device } from '@twilio/voice-sdk';
import { toast } from 'sonner';
import { VoiceTokenSchema } from '#domain/calls/call.schema.ts';
import { classifyTokenError } from '#domain/calls/phone-device.ts';
import { apiFetch } from '../../../lib/api-client.ts';
import type { PhoneDriver, PhoneEmit } from './browser-phone.ts';

const SDK_TIMEOUT_MS = 10_000;
const SETUP_TIMEOUT_MS = 10_000;

const within = <T>(work: Promise<T>, ms: number, message: string) =>
  Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(message)), ms))]);

const fetchToken = async () => {
  try {
    return (await apiFetch('/api/calls/voice-token', { schema: VoiceTokenSchema })).token;
  } catch (error) {
    const problem = classifyTokenError(error instanceof Error ? error.message : '');
    toast.error(problem.title, { description: problem.description });
    throw error;
  }
};

/**
 * Twilio's Voice SDK, loaded only when the phone starts: a token from our server,
 * codecs opus then pcmu, the token refreshed before it expires. Calls from the browser connect to the TwiML App's
 * Voice URL with our call id; calls the server places (bulk calls) ring this device and are answered at once.
 */
export function createTwilioDriver(emit: PhoneEmit): PhoneDriver {
  let device: Device | null = null;
  let current: TwilioCall | null = null;
  /** Calls that came in and ring on this device, by our call id. */
  const ringing = new Map<string, TwilioCall>();

  const follow = (call: TwilioCall) => {
    current = call;
    call.on('accept', () => emit({ type: 'connect' }));
    for (const ended of ['disconnect', 'cancel', 'reject'] as const)
      call.on(ended, () => {
        if (current === call) current = null;
        emit({ type: 'disconnect' });
      });
    call.on('error', (error: { message?: string }) =>
      emit({ type: 'error', message: error.message ?? 'Call error', permanent: false }),
    );
  };

  return {
    async start() {
      let sdk: typeof import('@twilio/voice-sdk');
      try {
        sdk = await within(import('@twilio/voice-sdk'), SDK_TIMEOUT_MS, 'Twilio SDK load timeout');
      } catch (error) {
        toast.error('Failed to load Twilio SDK', { description: (error as Error).message });
        emit({ type: 'error', message: 'Failed to load Twilio SDK', permanent: true });
        return;
      }
      const token = await fetchToken().catch(() => null);
      if (!token) return emit({ type: 'error', message: 'Could not get a phone token', permanent: true });
      device = new sdk.Device(token, {
        codecPreferences: [sdk.Call.Codec.Opus, sdk.Call.Codec.PCMU],
        closeProtection: true,
      });
      device.on('registered', () => emit({ type: 'ready' }));
      device.on('error', (error: { message?: string }) =>
        emit({ type: 'error', message: error.message ?? 'Device error', permanent: true }),
      );
      device.on('tokenWillExpire', () => {
        void fetchToken()
          .then((fresh) => device?.updateToken(fresh))
          .catch(() => emit({ type: 'error', message: 'Token expired', permanent: false }));
      });
      device.on('incoming', (call: TwilioCall) => {
        // Only the agent's own bridged calls carry our call id; anything else is refused.
        const callId = call.customParameters.get('callId');
        if (!callId) return call.reject();
        // A call that came in rings until the user answers (on this device or another: Twilio cancels the rest).
        if (call.customParameters.get('direction') === 'inbound') {
          ringing.set(callId, call);
          for (const gone of ['cancel', 'disconnect', 'reject'] as const)
            call.on(gone, () => ringing.delete(callId));
          return;
        }
        follow(call);
        call.accept();
      });
      try {
        await within(device.register(), SETUP_TIMEOUT_MS, 'Device setup timeout');
      } catch (error) {
        emit({ type: 'error', message: (error as Error).message, permanent: true });
      }
    },
    async connect(call) {
      if (!device) throw new Error('Device Error: Twilio device not found');
      follow(await device.connect({ params: { callId: call.id } }));
    },
    answer(call) {
      const pending = ringing.get(call.id);
      if (!pending) return Promise.reject(new Error('This call is no longer ringing on this device'));
      ringing.delete(call.id);
      follow(pending);
      pending.accept();
      return Promise.resolve();
    },
    decline(call) {
      const pending = ringing.get(call.id);
      if (!pending) return Promise.reject(new Error('This call is no longer ringing on this device'));
      ringing.delete(call.id);
      pending.reject();
      return Promise.resolve();
    },
    observe: () => undefined,
    hangUp() {
      if (!current) return false;
      current.disconnect();
      return true;
    },
    sendDigits: (digits) => current?.sendDigits(digits),
    setMuted: (muted) => current?.mute(muted),
    setSpeaker(on) {
      // The other side's sound: the remote stream's audio tracks, switched off and on.
      for (const track of current?.getRemoteStream()?.getAudioTracks() ?? []) track.enabled = on;
    },
    stop() {
      device?.destroy();
      device = null;
    },
  };
}
