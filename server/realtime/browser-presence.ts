/** The advisory-lock key text under which an instance says a user has the app open in a browser. */
export const browserPresenceKeyText = (userId: string) => `callcrm-browser:${userId}`;

/** What holds a shared lock for as long as this instance lives (its own connection: instance-connection.ts). */
type SharedLocks = { holdShared: (keyText: string) => void; releaseShared: (keyText: string) => void };

/**
 * Which users have the app open in a browser (an event stream) on this instance. While a user has one, this
 * instance's own connection holds a shared advisory lock keyed by them; any instance reads it in pg_locks
 * (browser-presence.repository.ts). A killed instance's connection goes, and its locks with it: nobody is
 * reported online by a server that is gone.
 */
export type BrowserPresence = {
  /** A browser of the user opened its event stream; call the answer when it closes (twice is harmless). */
  opened: (userId: string) => () => void;
};

export function createBrowserPresence(locks: SharedLocks): BrowserPresence {
  const open = new Map<string, number>();
  return {
    opened(userId) {
      const count = (open.get(userId) ?? 0) + 1;
      open.set(userId, count);
      if (count === 1) locks.holdShared(browserPresenceKeyText(userId));
      let closed = false;
      return () => {
        if (closed) return;
        closed = true;
        const left = (open.get(userId) ?? 1) - 1;
        if (left > 0) return void open.set(userId, left);
        open.delete(userId);
        locks.releaseShared(browserPresenceKeyText(userId));
      };
    },
  };
}
