/**
 * How an import shares the database with the people at work (decision 041). An import saves its batches on two
 * connections at once, which on a small machine keeps PostgreSQL on every core; while others are using the database
 * it steps back to one connection and, after each batch, rests in proportion to how busy they kept it.
 */
export const IMPORT_PACE = {
  /** The most batches saved at once, on an idle database. */
  savers: 2,
  /** Below this share of a batch's time with another connection in use, the database counts as idle. */
  busyFrom: 0.2,
  /** A busy database's rest, per ms of the batch and per share of it others were busy: at 1, a third of a core. */
  restPerBusyMs: 2,
} as const;

/**
 * The savers and the rest after a batch that took `batchMs`, during which others used the requests' pool
 * `busyShare` of the time (0 to 1): idle, full speed; busy, one saver and a rest of up to twice the batch's own
 * time (at most a third of the time saving, so at most a third of a core).
 */
export function importPace(batchMs: number, busyShare: number): { savers: number; restMs: number } {
  if (!(busyShare >= IMPORT_PACE.busyFrom)) return { savers: IMPORT_PACE.savers, restMs: 0 };
  const share = Math.min(1, busyShare);
  return { savers: 1, restMs: Math.round(Math.max(0, batchMs) * share * IMPORT_PACE.restPerBusyMs) };
}
