/**
 * How an import shares the database with the people at work (decisions 041, 043). An import saves its batches on two
 * connections at once, which on a small machine keeps PostgreSQL on every core; while others are using the database
 * it steps back to one connection and, after each batch, rests in proportion to how busy they kept it. When people
 * had to wait meanwhile, for a connection or (decision 062) for one of the machine's cores, that was not enough: each
 * such batch doubles the rest, and each batch without a wait halves it again, down to the first step.
 */
export const IMPORT_PACE = {
  /** The most batches saved at once, on an idle database. */
  savers: 2,
  /** Below this share of a batch's time with another connection in use, the database counts as idle. */
  busyFrom: 0.2,
  /** A busy database's rest, per ms of the batch and per share of it others were busy: at 1, a third of a core. */
  restPerBusyMs: 2,
  /** The most it grows to while people wait for connections: saving at most 1/33 of the time. */
  mostRestPerBusyMs: 32,
  /**
   * While others are busy, the share of the time some task waited for a CPU (the kernel's pressure stall
   * information, /proc/pressure/cpu "some") from which they count as waiting too: a tenth of the time. On two cores
   * a floor of 200 reps with campaigns beside it kept its targets at about a third of the machine busy; the import
   * beside them took it to two thirds and broke them, with no request ever waiting for a connection (decision 061).
   */
  cpuStalledFrom: 0.1,
} as const;

/**
 * What a batch saw: its time, the share of it others used the requests' pool, whether a request waited for a
 * connection, and the share of the time since the last batch some task waited for a CPU (null where the kernel does
 * not say).
 */
export type BatchSeen = { batchMs: number; busyShare: number; waited: boolean; cpuStalled: number | null };

export type Pace = {
  savers: number;
  restMs: number;
  /** The rest per ms of batch and busy share this pace used: the next batch's starting point. */
  restPerBusyMs: number;
};

/** The pace of an import before its first batch: full speed. */
export const FIRST_PACE: Pace = {
  savers: IMPORT_PACE.savers,
  restMs: 0,
  restPerBusyMs: IMPORT_PACE.restPerBusyMs,
};

/**
 * Whether people waited during a batch: a request for a connection, or, while others kept the pool busy, tasks for
 * a CPU a tenth of the time or more. The import's own stalls count too, but only matter while others are at work:
 * alone, an import that keeps both cores busy is what it should do.
 */
export function peopleWaited(seen: BatchSeen): boolean {
  if (seen.waited) return true;
  return (
    seen.busyShare >= IMPORT_PACE.busyFrom &&
    seen.cpuStalled !== null &&
    seen.cpuStalled >= IMPORT_PACE.cpuStalledFrom
  );
}

/**
 * The savers and the rest after a batch, given the pace before it: idle (and nobody waited), full speed; busy, one
 * saver and a rest of the batch's time × the busy share × restPerBusyMs, which doubles after a batch during which
 * people waited (for a connection or a CPU, up to mostRestPerBusyMs) and halves after one without (down to
 * restPerBusyMs).
 */
export function importPace(previous: Pace, seen: BatchSeen): Pace {
  const waited = peopleWaited(seen);
  const factor = waited
    ? Math.min(IMPORT_PACE.mostRestPerBusyMs, previous.restPerBusyMs * 2)
    : Math.max(IMPORT_PACE.restPerBusyMs, previous.restPerBusyMs / 2);
  // People who waited mean the pool, or the machine, was all in use, whatever share the samples caught.
  const share = waited ? 1 : Math.min(1, seen.busyShare);
  if (!(share >= IMPORT_PACE.busyFrom)) return { ...FIRST_PACE, restPerBusyMs: factor };
  return { savers: 1, restMs: Math.round(Math.max(0, seen.batchMs) * share * factor), restPerBusyMs: factor };
}
