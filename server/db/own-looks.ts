/**
 * The instance's own repeated looks at the database (the change feed, the webhook watch: every 100 ms each), counted
 * while in flight on the database handle they go through. An import judges how busy people keep the requests' pool
 * (decision 041); these looks are not people, and at ten a second each they would make an import alone on a quiet
 * server rest after every short batch (decision 051).
 */
const inFlight = new WeakMap<object, number>();

/** Runs one of the instance's own looks through `handle`, counted while it runs. */
export async function ownLook<T>(handle: object, look: () => Promise<T>): Promise<T> {
  inFlight.set(handle, (inFlight.get(handle) ?? 0) + 1);
  try {
    return await look();
  } finally {
    inFlight.set(handle, (inFlight.get(handle) ?? 1) - 1);
  }
}

/** How many of the instance's own looks are in flight through `handle` now. */
export function ownLooksOn(handle: object): number {
  return inFlight.get(handle) ?? 0;
}
