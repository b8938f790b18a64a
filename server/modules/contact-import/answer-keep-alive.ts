/**
 * An import's answer is a line per event, but some of its steps (a rest beside people at work, PostgreSQL sampling
 * the new contacts, a slow range of the queueing) can go long without one, and the server closes a socket silent for
 * its connection timeout (120 s, server/app.ts): the import would go on while the user's dialog said it failed. So
 * the last line is said again whenever `quietMs` passed without one. `stop` when the answer ends.
 */
export function keepAnswerAlive<T>(write: (event: T) => void, quietMs = 30_000) {
  let last: T | undefined;
  let lastAt = Date.now();
  const say = (event: T) => {
    last = event;
    lastAt = Date.now();
    write(event);
  };
  const timer = setInterval(
    () => {
      if (last !== undefined && Date.now() - lastAt >= quietMs) say(last);
    },
    Math.max(10, Math.floor(quietMs / 3)),
  );
  timer.unref();
  return { say, stop: () => clearInterval(timer) };
}
