import { isFinished } from '#domain/calls/call-status.ts';
import { apiFetch } from '../../../lib/api-client.ts';
import type { PhoneDriver, PhoneEmit } from './browser-phone.ts';

/**
 * The simulator's browser-phone stand-in: no audio, the same device events. It is ready at once, and
 * follows the call the server placed: answered → connect, finished → disconnect. Digits, mute and speaker are kept and
 * shown, as there is no line or sound to apply them to.
 */
export function createSimulatorDriver(emit: PhoneEmit): PhoneDriver {
  let live: string | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    start() {
      timer = setTimeout(() => emit({ type: 'ready' }), 300);
      return Promise.resolve();
    },
    connect: () => Promise.resolve(),
    // The server decides which tab or device took the call: the first to ask.
    answer: async (call) => {
      await apiFetch(`/api/calls/${call.id}/answer`, { method: 'POST' });
    },
    decline: async (call) => {
      await apiFetch(`/api/calls/${call.id}/decline`, { method: 'POST' });
    },
    observe(call) {
      if (call.status === 'in-progress' && live !== call.id) {
        live = call.id;
        emit({ type: 'connect' });
      } else if (isFinished(call.status) && live === call.id) {
        live = null;
        emit({ type: 'disconnect' });
      }
    },
    hangUp: () => false,
    sendDigits: () => undefined,
    // No audio on the simulator: the phone keeps the mute and speaker state and shows it.
    setMuted: () => undefined,
    setSpeaker: () => undefined,
    stop: () => clearTimeout(timer),
  };
}
