import { describe, expect, it } from 'vitest';
import {
  classifyPhoneError,
  classifyTokenError,
  deviceTransition,
  INITIAL_DEVICE_STATE,
  type DeviceEvent,
  type DeviceState,
} from './phone-device.ts';

const withContact = { hasContact: true, hasDisposition: false };
const run = (events: [DeviceEvent, number][], context = withContact) => {
  let state: DeviceState = INITIAL_DEVICE_STATE;
  const effects: string[] = [];
  for (const [event, at] of events) {
    const next = deviceTransition(state, event, at, context);
    state = next.state;
    effects.push(...next.effects);
  }
  return { state, effects };
};

describe('the browser phone', () => {
  it('goes ready, on a call and back, timing the call and asking for a disposition', () => {
    const { state, effects } = run([
      [{ type: 'ready' }, 0],
      [{ type: 'connect' }, 1_000],
      [{ type: 'tick' }, 4_000],
      [{ type: 'disconnect' }, 43_400],
    ]);
    expect(state).toEqual({
      status: 'ready',
      callStartTime: null,
      callEndTime: 43_400,
      callDuration: 42,
      error: null,
    });
    expect(effects).toEqual(['show-disposition', 'call-ended-prompt']);
  });

  it('ticks the duration every second while on a call', () => {
    expect(
      run([
        [{ type: 'ready' }, 0],
        [{ type: 'connect' }, 1_000],
        [{ type: 'tick' }, 4_000],
      ]).state,
    ).toMatchObject({ status: 'on-call', callStartTime: 1_000, callDuration: 3 });
  });

  it('asks for no disposition when one is chosen or no contact is set', () => {
    const events: [DeviceEvent, number][] = [
      [{ type: 'ready' }, 0],
      [{ type: 'connect' }, 0],
      [{ type: 'disconnect' }, 5_000],
    ];
    expect(run(events, { hasContact: true, hasDisposition: true }).effects).toEqual(['show-disposition']);
    expect(run(events, { hasContact: false, hasDisposition: false }).effects).toEqual(['show-disposition']);
  });

  it('ignores a connect before ready and a disconnect when not on a call', () => {
    expect(run([[{ type: 'connect' }, 0]]).state.status).toBe('disconnected');
    expect(
      run([
        [{ type: 'ready' }, 0],
        [{ type: 'disconnect' }, 0],
      ]),
    ).toMatchObject({ state: { status: 'ready' }, effects: [] });
  });

  it('sets error on a permanent error only, and a reset returns to disconnected', () => {
    const temporary = run([
      [{ type: 'ready' }, 0],
      [{ type: 'error', message: 'Token expired', permanent: false }, 1],
    ]).state;
    expect(temporary).toMatchObject({ status: 'ready', error: 'Token expired' });
    const permanent = run([
      [{ type: 'ready' }, 0],
      [{ type: 'error', message: 'Invalid token', permanent: true }, 1],
    ]).state;
    expect(permanent.status).toBe('error');
    expect(
      run([
        [{ type: 'ready' }, 0],
        [{ type: 'reset' }, 1],
      ]).state,
    ).toEqual(INITIAL_DEVICE_STATE);
  });
});

describe('phone errors', () => {
  it('treats the microphone and an expired token as temporary, an invalid token as permanent', () => {
    expect(classifyPhoneError('NotAllowedError: Permission denied')).toMatchObject({
      title: 'Microphone permission is required for calls',
      permanent: false,
      retryMicrophone: true,
    });
    expect(classifyPhoneError('Token expired')).toMatchObject({
      title: 'Phone connection expired, please reconnect',
      permanent: false,
    });
    expect(classifyPhoneError('Invalid token')).toMatchObject({
      title: 'Device Setup Error',
      description: 'Invalid credentials for phone system',
      permanent: true,
    });
  });

  it('treats other messages as permanent unless they say temporary, retry or expired', () => {
    expect(classifyPhoneError('Signalling failed').permanent).toBe(true);
    expect(classifyPhoneError('Temporary network issue').permanent).toBe(false);
    expect(classifyPhoneError('Please retry').permanent).toBe(false);
  });

  it('tells a missing provider configuration from a connection problem', () => {
    expect(classifyTokenError('Server configuration error: no voice provider').title).toBe(
      'Voice provider not configured',
    );
    expect(classifyTokenError('Failed to fetch')).toEqual({
      title: 'Connection Error',
      description: 'Could not connect to the phone service',
    });
  });
});
