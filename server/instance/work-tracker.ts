/**
 * Work a request started that must finish before the database closes (an import recording how it ended). Closing
 * the server waits for it, for a bounded time: whatever is left after that is closed by the janitor of the next
 * instance to run (instance/janitor.ts), as after a crash.
 */
export type WorkTracker = {
  track: <T>(work: Promise<T>) => Promise<T>;
  drain: (timeoutMs: number) => Promise<void>;
};

export function createWorkTracker(): WorkTracker {
  const running = new Set<Promise<unknown>>();
  return {
    track(work) {
      const settled = work.then(
        () => undefined,
        () => undefined,
      );
      running.add(settled);
      void settled.then(() => running.delete(settled));
      return work;
    },
    async drain(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
      await Promise.race([Promise.all(running), deadline]);
      clearTimeout(timer);
    },
  };
}
