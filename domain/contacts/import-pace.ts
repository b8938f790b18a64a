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
} as const;

/**
 * The savers and the rest after a batch that took `batchMs`, during which another connection than the import's
 * was in use `busyShare` of the time (0 to 1): idle, full speed; busy, one saver and a rest of up to the batch's
 * own time (at most half the time saving, so at most half a core).
 */
export function importPace(batchMs: number, busyShare: number): { savers: number; restMs: number } {
  if (!(busyShare >= IMPORT_PACE.busyFrom)) return { savers: IMPORT_PACE.savers, restMs: 0 };
  return { savers: 1, restMs: Math.round(Math.max(0, batchMs) * Math.min(1, busyShare)) };
}
