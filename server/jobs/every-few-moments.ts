import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs a look every `ms` after the previous one ends (never two at once), until the returned stop is called. A look
 * that throws is tried again next time; the failure is logged once per outage (the database restarting, say), not
 * ten times a second.
 */
export function everyFewMoments(
  ms: number,
  look: () => Promise<void>,
  log: FastifyBaseLogger,
  failure: string,
): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let failing = false;
  const run = async () => {
    try {
      await look();
      failing = false;
    } catch (error) {
      if (!failing) log.warn({ err: error }, failure);
      failing = true;
    }
    if (!stopped) timer = setTimeout(() => void run(), ms);
  };
  timer = setTimeout(() => void run(), ms);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
