import { ChangeEventSchema, isChangeVisibleTo, type ChangeEvent } from '#domain/realtime/change-event.ts';
import type { ChannelListener } from '../db/notify.ts';
import { CHANGES_CHANNEL } from './announce-change.ts';

export type ChangeListener = {
  viewer: () => { userId: string; isAdmin: boolean } | null;
  send: (event: ChangeEvent) => void;
  /** Ends the listener's stream (the server is shutting down). */
  close: () => void;
};

/**
 * Relays PostgreSQL change notices (channel app_changes, written by the notify_change trigger) to the browsers of
 * this server instance. Every instance LISTENs on its own connection (server/instance/instance-connection.ts), so a change made
 * through any instance reaches every open page.
 */
export type ChangeHub = {
  subscribe: (listener: ChangeListener) => () => void;
  listenerCount: () => number;
  /** Ends every open stream, so a shutting-down server is not held open by them. */
  closeAll: () => void;
};

export function createChangeHub(connection: ChannelListener): ChangeHub {
  const listeners = new Set<ChangeListener>();
  connection.listen(CHANGES_CHANNEL, (payload) => {
    let parsed: ReturnType<typeof ChangeEventSchema.safeParse>;
    try {
      parsed = ChangeEventSchema.safeParse(JSON.parse(payload ?? 'null'));
    } catch {
      return;
    }
    if (!parsed.success) return;
    for (const listener of listeners) {
      const viewer = listener.viewer();
      if (viewer && isChangeVisibleTo(parsed.data, viewer)) listener.send(parsed.data);
    }
  });
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    listenerCount: () => listeners.size,
    closeAll() {
      for (const listener of [...listeners]) listener.close();
    },
  };
}
