import type { TelephonyProviderName } from '#domain/calls/call-status.ts';
import { useSyncExternalStore } from 'react';
import { CallResponseSchema, type Call } from '#domain/calls/call.schema.ts';
import { apiFetch } from '../../lib/api-client.ts';
import { toast } from 'sonner';
import { phone } from './phone/browser-phone.ts';
import { placeCall } from './api/place-call.ts';

/** Who is being called: what the call panel shows and the disposition is saved against. */
export type CallTarget = {
  contactId?: string;
  name: string;
  phone: string;
  company?: string | null;
  /** The call queue being walked: the call and its disposition carry it, and the disposition completes the contact. */
  queueId?: string;
};
/**
 * The live call of this tab, one at a time (the single store the call panel, the browser dialer and the pop-out
 * read). `shownIn` says which of them presents it: the browser dialer shows its calls itself, so the floating
 * panel stays out of its way.
 */
export type ActiveCall = { call: Call; target: CallTarget; shownIn: 'panel' | 'dialer' };

let current: ActiveCall | null = null;
const listeners = new Set<() => void>();
const set = (next: ActiveCall | null) => {
  current = next;
  for (const notify of listeners) notify();
};

/** The call this tab is on (one at a time), shown by the call panel until its disposition is saved or skipped. */
export function useActiveCall(): ActiveCall | null {
  return useSyncExternalStore(
    (notify) => {
      listeners.add(notify);
      return () => listeners.delete(notify);
    },
    () => current,
  );
}

/** Calls a contact or a number and opens the call panel on success (click-to-call). */
export async function callTarget(
  target: CallTarget,
  setup: { provider: TelephonyProviderName; from: string | null },
  shownIn: ActiveCall['shownIn'] = 'panel',
): Promise<void> {
  const twilio = setup.provider === 'twilio';
  if (twilio) {
    // On Twilio the agent talks through the browser phone: it must be ready before the call goes out.
    void phone.start('twilio');
    if (!(await phone.whenReady()))
      return void toast.error('Device Not Ready', { description: 'The browser phone could not connect.' });
  }
  const call = await placeCall(
    { contactId: target.contactId, to: target.phone, from: setup.from, queueId: target.queueId },
    setup.provider,
    twilio ? 'browser' : 'server',
  );
  if (!call) return;
  set({ call, target, shownIn });
  if (twilio)
    await phone
      .connect(call)
      .catch(() => toast.error('Call Failed', { description: 'Could not place the call' }));
}

export const closeActiveCall = () => set(null);

/** A call placed by the browser dialer itself becomes the live call, shown by the dialer. */
export const showActiveCall = (call: Call, target: CallTarget) => set({ call, target, shownIn: 'dialer' });

/**
 * A line of a parallel round that reached a person becomes the live call, shown by the call panel (the server
 * connected it; on Twilio the browser phone rings with it).
 */
export async function takeConnectedCall(callId: string, target: CallTarget): Promise<void> {
  if (current?.call.id === callId) return;
  const { call } = await apiFetch(`/api/calls/${callId}`, { schema: CallResponseSchema });
  set({ call, target, shownIn: 'panel' });
}

/**
 * Picks up a call that came in (decision 028) and shows it in the call panel: the browser phone answers it (Twilio's
 * on this device; on the simulator the server gives it to the first tab that asks). Throws the reason it could not.
 */
/** Declines a call that came in (decision 029): it stops ringing and the caller may leave a voicemail. */
export async function declineIncomingCall(call: Call, provider: TelephonyProviderName): Promise<void> {
  void phone.start(provider);
  if (!(await phone.whenReady())) throw new Error('The browser phone could not connect.');
  await phone.decline(call);
}

export async function answerIncomingCall(
  call: Call,
  target: CallTarget,
  provider: TelephonyProviderName,
): Promise<void> {
  void phone.start(provider);
  if (!(await phone.whenReady())) throw new Error('The browser phone could not connect.');
  await phone.answer(call);
  set({ call: { ...call, status: 'in-progress' }, target, shownIn: 'panel' });
}
