/**
 * The browser phone: its state machine and what it asks of the screen, the same for Twilio's
 * Voice SDK and the simulator's stand-in. Pure: the caller supplies the time.
 */
export type DeviceStatus = 'disconnected' | 'ready' | 'on-call' | 'error';

export type DeviceState = {
  status: DeviceStatus;
  /** Set on entering a call, cleared when it ends (epoch ms). */
  callStartTime: number | null;
  callEndTime: number | null;
  /** Seconds: ticks while on a call, final once it ends. */
  callDuration: number;
  error: string | null;
};

export type DeviceEvent =
  | { type: 'ready' }
  | { type: 'connect' }
  | { type: 'disconnect' }
  | { type: 'error'; message: string; permanent: boolean }
  | { type: 'reset' }
  | { type: 'tick' };

/** What the screen does on a transition: open the Disposition tab; ask for a disposition ('Call Ended'). */
export type DeviceEffect = 'show-disposition' | 'call-ended-prompt';

export const INITIAL_DEVICE_STATE: DeviceState = {
  status: 'disconnected',
  callStartTime: null,
  callEndTime: null,
  callDuration: 0,
  error: null,
};

const seconds = (from: number, to: number) => Math.max(0, Math.round((to - from) / 1000));

/**
 * disconnected → ready (device ready) → on-call (connect) → ready (disconnect); a permanent error sets error; a
 * reset returns to disconnected. Entering a call records its start, clears its end, zeroes the duration and
 * shows the Disposition tab; leaving it stores end and duration and, when a contact is set with no disposition
 * chosen, asks for one.
 */
export function deviceTransition(
  state: DeviceState,
  event: DeviceEvent,
  now: number,
  context: { hasContact: boolean; hasDisposition: boolean },
): { state: DeviceState; effects: DeviceEffect[] } {
  switch (event.type) {
    case 'ready':
      if (state.status === 'disconnected' || state.status === 'error')
        return { state: { ...state, status: 'ready', error: null }, effects: [] };
      return { state, effects: [] };
    case 'connect':
      if (state.status !== 'ready') return { state, effects: [] };
      if (state.callStartTime !== null) return { state: { ...state, status: 'on-call' }, effects: [] };
      return {
        state: { ...state, status: 'on-call', callStartTime: now, callEndTime: null, callDuration: 0 },
        effects: ['show-disposition'],
      };
    case 'disconnect': {
      if (state.status !== 'on-call') return { state, effects: [] };
      if (state.callStartTime === null) return { state: { ...state, status: 'ready' }, effects: [] };
      const ended = {
        ...state,
        status: 'ready' as const,
        callEndTime: now,
        callDuration: seconds(state.callStartTime, now),
        callStartTime: null,
      };
      return {
        state: ended,
        effects: context.hasContact && !context.hasDisposition ? ['call-ended-prompt'] : [],
      };
    }
    case 'tick':
      if (state.status !== 'on-call' || state.callStartTime === null) return { state, effects: [] };
      return { state: { ...state, callDuration: seconds(state.callStartTime, now) }, effects: [] };
    case 'error':
      if (!event.permanent) return { state: { ...state, error: event.message }, effects: [] };
      return { state: { ...state, status: 'error', error: event.message }, effects: [] };
    case 'reset':
      return { state: INITIAL_DEVICE_STATE, effects: [] };
  }
}

/** How the screen reports a phone problem. */
export type PhoneProblem = {
  title: string;
  description: string;
  /** Permanent problems set the device to error; temporary ones are retried. */
  permanent: boolean;
  /** The microphone is asked for again. */
  retryMicrophone: boolean;
};

/** Device and SDK errors, by their message. */
export function classifyPhoneError(message: string): PhoneProblem {
  if (/permission|NotAllowed|MediaDevices/i.test(message))
    return {
      title: 'Microphone permission is required for calls',
      description: 'Allow the microphone for this site, then try again.',
      permanent: false,
      retryMicrophone: true,
    };
  if (/token expired/i.test(message))
    return {
      title: 'Phone connection expired, please reconnect',
      description: message,
      permanent: false,
      retryMicrophone: false,
    };
  if (/invalid token/i.test(message))
    return {
      title: 'Device Setup Error',
      description: 'Invalid credentials for phone system',
      permanent: true,
      retryMicrophone: false,
    };
  return {
    title: 'Device Error',
    description: message,
    permanent: !/temporary|retry|expired/i.test(message),
    retryMicrophone: false,
  };
}

/** A failed browser-phone token request. */
export function classifyTokenError(message: string): { title: string; description: string } {
  if (/server configuration error/i.test(message))
    return {
      title: 'Voice provider not configured',
      description:
        'Voice provider credentials are missing on the server. Ask your administrator to set up Twilio (README "Calling with Twilio").',
    };
  return { title: 'Connection Error', description: 'Could not connect to the phone service' };
}
