import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { ChangeEventSchema, isChangeVisibleTo, type ChangeEvent } from '#domain/realtime/change-event.ts';

export type ChangeListener = {
  viewer: () => { userId: string; isAdmin: boolean } | null;
  send: (event: ChangeEvent) => void;
};

/**
 * Relays PostgreSQL change notices (channel app_changes, written by the notify_change trigger) to the browsers of
 * this server instance. Every instance LISTENs on its own connection, so a change made through any instance reaches
 * every open page. Reconnects with back-off if the connection drops.
 */
export type ChangeHub = {
  subscribe: (listener: ChangeListener) => () => void;
  start: () => Promise<void>;
  stop: () => Promise<void>;
  listenerCount: () => number;
};

export function createChangeHub(options: { connectionString: string; log: FastifyBaseLogger }): ChangeHub {
  const listeners = new Set<ChangeListener>();
  let client: pg.Client | null = null;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | null = null;

  function dispatch(payload: string | undefined): void {
    const parsed = ChangeEventSchema.safeParse(JSON.parse(payload ?? 'null'));
    if (!parsed.success) return;
    for (const listener of listeners) {
      const viewer = listener.viewer();
      if (viewer && isChangeVisibleTo(parsed.data, viewer)) listener.send(parsed.data);
    }
  }

  async function connect(attempt: number): Promise<void> {
    if (stopped) return;
    const next = new pg.Client({ connectionString: options.connectionString });
    next.on('notification', (message) => dispatch(message.payload));
    next.on('error', (error) => {
      options.log.warn({ err: error }, 'realtime connection lost; reconnecting');
      void next.end().catch(() => undefined);
      scheduleReconnect(attempt + 1);
    });
    try {
      await next.connect();
      await next.query('listen app_changes');
      client = next;
    } catch (error) {
      options.log.warn({ err: error }, 'realtime connection failed; retrying');
      await next.end().catch(() => undefined);
      scheduleReconnect(attempt + 1);
    }
  }

  function scheduleReconnect(attempt: number): void {
    if (stopped || retryTimer) return;
    client = null;
    retryTimer = setTimeout(
      () => {
        retryTimer = null;
        void connect(attempt);
      },
      Math.min(30_000, 250 * 2 ** attempt),
    );
  }

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start: () => connect(0),
    async stop() {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      await client?.end().catch(() => undefined);
    },
    listenerCount: () => listeners.size,
  };
}
