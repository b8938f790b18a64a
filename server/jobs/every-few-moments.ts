import type { FastifyBaseLogger } from 'fastify';

export type Repeating = {
  /** Looks now rather than at the next tick (after the running look, if one runs); many calls make one look. */
  soon: () => void;
  stop: () => void;
};

/**
 * Runs a look every `ms` after the previous one ends (never two at once), until stopped. A look that throws is tried
 * again next time; the failure is logged once per outage (the database restarting, say), not ten times a second.
 */
export function everyFewMoments(
  ms: number,
  look: () => Promise<void>,
  log: FastifyBaseLogger,
  failure: string,
): Repeating {
  let stopped = false;
  let running = false;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let failing = false;
  const run = async () => {
    timer = null;
    running = true;
    try {
      await look();
      failing = false;
    } catch (error) {
      if (!failing) log.warn({ err: error }, failure);
      failing = true;
    }
    running = false;
    if (stopped) return;
    const wait = again ? 0 : ms;
    again = false;
    timer = setTimeout(() => void run(), wait);
  };
  timer = setTimeout(() => void run(), ms);
  return {
    soon() {
      if (stopped) return;
      if (running) {
        again = true;
        return;
      }
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void run(), 0);
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
