import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ChangeEventSchema, type ChangeEvent } from '#domain/realtime/change-event.ts';

export type LiveStatus = 'connecting' | 'live' | 'offline';

type Listener = (event: ChangeEvent) => void;
const listeners = new Set<Listener>();
const statusListeners = new Set<() => void>();
let currentStatus: LiveStatus = 'connecting';

/** Lets a screen react to a change beyond refetching (the admin's new-signup badge). */
export function onChangeEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function setStatus(status: LiveStatus): void {
  currentStatus = status;
  for (const notify of statusListeners) notify();
}

/** The stream's state, for the live status label. */
export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(
    (notify) => {
      statusListeners.add(notify);
      return () => statusListeners.delete(notify);
    },
    () => currentStatus,
  );
}

/** The one realtime connection of the page: mounted once, open while someone is signed in. */
export function RealtimeConnection({ viewerId }: { viewerId: string | null }) {
  useChangeEvents(viewerId);
  return null;
}

/**
 * Opens the Server-Sent Events stream while someone is signed in, and refetches the queries of each changed topic
 * (decision 005). EventSource reconnects by itself after a drop.
 */
export function useChangeEvents(viewerId: string | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!viewerId) return;
    const source = new EventSource('/api/events');
    setStatus('connecting');
    source.addEventListener('ready', () => setStatus('live'));
    source.addEventListener('change', (message: MessageEvent<string>) => {
      const parsed = ChangeEventSchema.safeParse(JSON.parse(message.data));
      if (!parsed.success) return;
      const event = parsed.data;
      void queryClient.invalidateQueries({ queryKey: [event.topic] });
      if (event.topic === 'profiles' && event.id === viewerId) {
        // Deny and deactivation end the session at once, so the server can no longer say why: the event does.
        const lost = event.role === 'denied' ? 'denied' : event.deactivated ? 'deactivated' : null;
        if (lost) queryClient.setQueryData(['session'], { profile: null, reason: lost });
        else void queryClient.invalidateQueries({ queryKey: ['session'] });
      }
      for (const l of listeners) l(event);
    });
    source.onerror = () => setStatus(source.readyState === EventSource.CLOSED ? 'offline' : 'connecting');
    return () => {
      source.close();
      setStatus('offline');
    };
  }, [viewerId, queryClient]);
}
