import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';

/** What the text of an instance's presence key starts with; its id follows. */
export const PRESENCE_KEY_PREFIX = 'callcrm-instance:';
/** The text whose hash is the advisory-lock key of an instance's presence. */
export const presenceKeyText = (instanceId: string) => `${PRESENCE_KEY_PREFIX}${instanceId}`;

/**
 * One server instance's own long-lived database connection (docs/decisions/011-hardening.md). It LISTENs for the
 * notification channels the instance subscribes to (simulator hang-ups), and holds a session
 * advisory lock keyed by the instance's id for as long as it is connected: that lock is how every other instance
 * knows this one is alive. A process killed with -9 loses its connection, PostgreSQL releases the lock at once, and
 * the work recorded under the instance's id is known to be abandoned. Reconnects with back-off if the connection
 * drops, taking the lock and the channels again.
 */
export type InstanceConnection = {
  instanceId: string;
  /** Handles a channel's notifications; call before start. */
  listen: (channel: string, handler: (payload: string | undefined) => void) => void;
  /**
   * Holds a shared advisory lock keyed by the text for as long as the connection lives, taken again after a
   * reconnection (several holders may share it: its being held is what others read); release gives it back.
   */
  holdShared: (keyText: string) => void;
  releaseShared: (keyText: string) => void;
  start: () => Promise<void>;
  stop: () => Promise<void>;
  isConnected: () => boolean;
};

const SHARED_LOCK = 'select pg_advisory_lock_shared(hashtextextended($1, 0))';

export function createInstanceConnection(options: {
  connectionString: string;
  instanceId: string;
  log: FastifyBaseLogger;
}): InstanceConnection {
  const handlers = new Map<string, (payload: string | undefined) => void>();
  /** The shared locks asked for, and those taken on the current connection (a lock is taken once per session). */
  const shared = new Set<string>();
  let taken = new Set<string>();
  let client: pg.Client | null = null;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | null = null;
  let lockStatements: Promise<void> = Promise.resolve();

  async function connect(attempt: number): Promise<void> {
    if (stopped) return;
    const next = new pg.Client({
      connectionString: options.connectionString,
      application_name: `callcrm ${options.instanceId.slice(0, 8)}`,
      keepAlive: true,
    });
    next.on('notification', (message) => handlers.get(message.channel)?.(message.payload));
    next.on('error', (error) => {
      options.log.warn({ err: error }, 'instance connection lost; reconnecting');
      void next.end().catch(() => undefined);
      if (client === next) client = null;
      scheduleReconnect(attempt + 1);
    });
    try {
      await next.connect();
      await next.query('select pg_advisory_lock(hashtextextended($1, 0))', [
        presenceKeyText(options.instanceId),
      ]);
      for (const channel of handlers.keys()) await next.query(`listen ${pg.escapeIdentifier(channel)}`);
      if (stopped) {
        await next.end();
        return;
      }
      client = next;
      taken = new Set();
      for (const keyText of shared) take(keyText);
    } catch (error) {
      options.log.warn({ err: error }, 'instance connection failed; retrying');
      await next.end().catch(() => undefined);
      scheduleReconnect(attempt + 1);
    }
  }

  /** Lock statements run in order on the live connection; a lost connection takes its locks (retaken on reconnect). */
  function onConnection(statement: string, keyText: string): void {
    const on = client;
    if (!on) return;
    // One statement at a time, each after the one before has answered (pg's client must not be handed a query while
    // it runs another).
    lockStatements = lockStatements
      .then(() => on.query(statement, [keyText]))
      .then(
        () => undefined,
        (error: unknown) => {
          options.log.warn({ err: error }, 'instance connection: advisory lock statement failed');
        },
      );
  }
  function take(keyText: string): void {
    if (!client || taken.has(keyText)) return;
    taken.add(keyText);
    onConnection(SHARED_LOCK, keyText);
  }

  function scheduleReconnect(attempt: number): void {
    if (stopped || retryTimer) return;
    retryTimer = setTimeout(
      () => {
        retryTimer = null;
        void connect(attempt);
      },
      Math.min(30_000, 250 * 2 ** attempt),
    );
  }

  return {
    instanceId: options.instanceId,
    listen: (channel, handler) => void handlers.set(channel, handler),
    holdShared(keyText) {
      shared.add(keyText);
      take(keyText);
    },
    releaseShared(keyText) {
      shared.delete(keyText);
      if (!taken.delete(keyText)) return;
      onConnection('select pg_advisory_unlock_shared(hashtextextended($1, 0))', keyText);
    },
    start: () => connect(0),
    async stop() {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      const current = client;
      client = null;
      await current?.end().catch(() => undefined);
    },
    isConnected: () => client !== null,
  };
}
