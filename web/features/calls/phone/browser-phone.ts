import type { TelephonyProviderName } from '#domain/calls/call-status.ts';
import { useSyncExternalStore } from 'react';
import { toast } from 'sonner';
import type { Call } from '#domain/calls/call.schema.ts';
import {
  classifyPhoneError,
  deviceTransition,
  INITIAL_DEVICE_STATE,
  type DeviceEffect,
  type DeviceEvent,
  type DeviceState,
} from '#domain/calls/phone-device.ts';
import { createSimulatorDriver } from './simulator-driver.ts';
import { createTwilioDriver } from './twilio-driver.ts';

/** What drives the phone: Twilio's Voice SDK, or the simulator's stand-in (no audio). */
export type PhoneDriver = {
  /** Registers the device; it reports 'ready' (or an error) through `emit`. */
  start: () => Promise<void>;
  /** Connects a call the server recorded (Twilio: Device.connect to our Voice URL). */
  connect: (call: Call) => Promise<void>;
  /**
   * Picks up a call that came in (decision 028): Twilio accepts the ringing call on this device; the simulator asks
   * the server, where the first device to answer takes it. Rejects with the reason when this device cannot.
   */
  answer: (call: Call) => Promise<void>;
  /**
   * Declines a call that came in: Twilio rejects it on this device; the simulator asks the server, which ends the
   * ringing and sends the caller to voicemail.
   */
  decline: (call: Call) => Promise<void>;
  /** The call's status as the server knows it (the stand-in turns it into connect and disconnect). */
  observe: (call: Call) => void;
  /** Hangs up from the browser; false when the server must do it (the simulator). */
  hangUp: () => boolean;
  sendDigits: (digits: string) => void;
  /** Mutes or unmutes the microphone on the live call. */
  setMuted: (muted: boolean) => void;
  /** Turns the call's sound (the other side) off or on. */
  setSpeaker: (on: boolean) => void;
  stop: () => void;
};
export type PhoneEmit = (event: DeviceEvent) => void;

export type PhoneSnapshot = DeviceState & {
  provider: TelephonyProviderName | null;
  sentDigits: string;
  /** The microphone is muted on the live call. */
  muted: boolean;
  /** The call's sound is on (false: the other side is not heard). */
  speakerOn: boolean;
};

const IDLE = { provider: null, sentDigits: '', muted: false, speakerOn: true } as const;
let snapshot: PhoneSnapshot = { ...INITIAL_DEVICE_STATE, ...IDLE };
let driver: PhoneDriver | null = null;
let starting: Promise<void> | null = null;
let context = { hasContact: false, hasDisposition: false };
let ticking: ReturnType<typeof setInterval> | undefined;
const listeners = new Set<() => void>();
const effectListeners = new Set<(effect: DeviceEffect) => void>();

const publish = (next: PhoneSnapshot) => {
  snapshot = next;
  for (const notify of listeners) notify();
};

/** Every device event goes through the domain state machine. */
const emit: PhoneEmit = (event) => {
  const { state, effects } = deviceTransition(snapshot, event, Date.now(), context);
  // Each new call starts with no digits sent, the microphone on and the sound on.
  const fresh = event.type === 'connect' ? { sentDigits: '', muted: false, speakerOn: true } : {};
  publish({ ...snapshot, ...state, ...fresh });
  if (event.type === 'error') {
    const problem = classifyPhoneError(event.message);
    toast.error(problem.title, {
      description: problem.description,
      // Temporary: the microphone is asked for again.
      ...(problem.retryMicrophone && {
        action: {
          label: 'Retry',
          onClick: () =>
            void navigator.mediaDevices
              ?.getUserMedia({ audio: true })
              .then((stream) => stream.getTracks().forEach((track) => track.stop()))
              .catch(() => toast.error('Microphone permission is required for calls')),
        },
      }),
    });
  }
  for (const effect of effects) for (const listener of effectListeners) listener(effect);
  // While on a call the duration ticks every second; no timer runs otherwise.
  if (snapshot.status === 'on-call' && !ticking) ticking = setInterval(() => emit({ type: 'tick' }), 1000);
  if (snapshot.status !== 'on-call' && ticking) {
    clearInterval(ticking);
    ticking = undefined;
  }
};

export const phone = {
  /** Starts the device for this provider once; later calls wait for the same start. */
  start(provider: TelephonyProviderName): Promise<void> {
    if (driver && snapshot.provider === provider && snapshot.status !== 'error')
      return starting ?? Promise.resolve();
    driver?.stop();
    publish({ ...INITIAL_DEVICE_STATE, ...IDLE, provider });
    driver = provider === 'twilio' ? createTwilioDriver(emit) : createSimulatorDriver(emit);
    starting = driver.start().catch(() => undefined);
    return starting;
  },
  /** Waits (up to `ms`) for the device to be ready. */
  async whenReady(ms = 10_000): Promise<boolean> {
    const until = Date.now() + ms;
    while (snapshot.status !== 'ready' && snapshot.status !== 'on-call' && Date.now() < until) {
      if (snapshot.status === 'error') return false;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return snapshot.status === 'ready' || snapshot.status === 'on-call';
  },
  connect: (call: Call) => driver?.connect(call) ?? Promise.resolve(),
  answer: (call: Call) =>
    driver?.answer(call) ?? Promise.reject(new Error('The browser phone is not started')),
  decline: (call: Call) =>
    driver?.decline(call) ?? Promise.reject(new Error('The browser phone is not started')),
  observe: (call: Call) => driver?.observe(call),
  hangUp: () => driver?.hangUp() ?? false,
  sendDigits(digits: string) {
    driver?.sendDigits(digits);
    publish({ ...snapshot, sentDigits: snapshot.sentDigits + digits });
  },
  setMuted(muted: boolean) {
    driver?.setMuted(muted);
    publish({ ...snapshot, muted });
  },
  setSpeaker(on: boolean) {
    driver?.setSpeaker(on);
    publish({ ...snapshot, speakerOn: on });
  },
  reset() {
    driver?.stop();
    driver = null;
    starting = null;
    emit({ type: 'reset' });
    publish({ ...snapshot, ...IDLE });
  },
  /** Whether a contact is set and a disposition chosen, for the 'Call Ended' prompt. */
  setContext(next: { hasContact: boolean; hasDisposition: boolean }) {
    context = next;
  },
  onEffect(listener: (effect: DeviceEffect) => void) {
    effectListeners.add(listener);
    return () => void effectListeners.delete(listener);
  },
};

export function usePhone(): PhoneSnapshot {
  return useSyncExternalStore(
    (notify) => {
      listeners.add(notify);
      return () => listeners.delete(notify);
    },
    () => snapshot,
  );
}
