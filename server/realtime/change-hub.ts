import { ChangeEventSchema, isChangeVisibleTo, type ChangeEvent } from '#domain/realtime/change-event.ts';

export type ChangeListener = {
  viewer: () => { userId: string; isAdmin: boolean } | null;
  send: (event: ChangeEvent) => void;
  /** From now on every change committed reaches the listener (called once, after the feed's next look). */
  ready: () => void;
  /** Ends the listener's stream (the server is shutting down). */
  close: () => void;
};

/**
 * Relays change notices (written by the notify triggers, read by each instance's change feed: change-feed.ts) to the
 * browsers of this server instance. Every instance reads every notice, so a change made through any instance
 * reaches every open page.
 *
 * A new listener joins at the end of the first look that starts after it subscribed, and is told it is ready then:
 * that look reads every notice committed before it started, so the listener gets no notice of a change made before
 * it subscribed and misses none made after it is ready.
 */
export type ChangeHub = {
  /** Called by the feed as a look starts; the answer is called when the look's notices have been relayed. */
  lookStarting: () => () => void;
  /** Hands one notice (its JSON text) to the streams allowed to see it. */
  relay: (payload: string) => void;
  subscribe: (listener: ChangeListener) => () => void;
  listenerCount: () => number;
  /** Ends every open stream, so a shutting-down server is not held open by them. */
  closeAll: () => void;
};

export function createChangeHub(): ChangeHub {
  /** Each listener: subscribed and waiting for a look to start, joining at the end of the running look, or active. */
  const listeners = new Map<ChangeListener, 'waiting' | 'joining' | 'active'>();
  return {
    lookStarting() {
      const joiners = [...listeners].filter(([, state]) => state === 'waiting').map(([listener]) => listener);
      for (const listener of joiners) listeners.set(listener, 'joining');
      return () => {
        for (const listener of joiners) {
          if (listeners.get(listener) !== 'joining') continue;
          listeners.set(listener, 'active');
          listener.ready();
        }
      };
    },
    relay(payload) {
      let parsed: ReturnType<typeof ChangeEventSchema.safeParse>;
      try {
        parsed = ChangeEventSchema.safeParse(JSON.parse(payload));
      } catch {
        return;
      }
      if (!parsed.success) return;
      for (const [listener, state] of listeners) {
        if (state !== 'active') continue;
        const viewer = listener.viewer();
        if (viewer && isChangeVisibleTo(parsed.data, viewer)) listener.send(parsed.data);
      }
    },
    subscribe(listener) {
      listeners.set(listener, 'waiting');
      return () => listeners.delete(listener);
    },
    listenerCount: () => listeners.size,
    closeAll() {
      for (const listener of [...listeners.keys()]) listener.close();
    },
  };
}
