import { sql, type Transaction } from 'kysely';
import type pg from 'pg';
import { withActor, type Actor, type Db } from './database.ts';
import type { Database } from './schema.ts';

/** How long a report read waits for the replica to replay what was committed before it began. */
export const REPLICA_WAIT_MS = 500;
const REPLAY_POLL_MS = 10;
/** After the replica could not be reached, reads go to the primary for this long before trying it again. */
const REPLICA_RETRY_AFTER_MS = 5_000;
/** A replica in trouble is reported in the log at most this often. */
const WARN_EVERY_MS = 60_000;

type Target = { db: Db; pool: pg.Pool };

/**
 * Where report reads go (decision 040): to the streaming replica named by DATABASE_REPLICA_URL, once it has replayed
 * everything the primary had committed when the read began, so a report never misses what its reader just saved;
 * to the primary when there is no replica, it cannot be reached, it is not a standby, or it is more than
 * REPLICA_WAIT_MS behind. Reports keep working whatever the replica does; the log says why they left it.
 */
export type ReportReads = {
  read<T>(actor: Actor, work: (trx: Transaction<Database>) => Promise<T>): Promise<T>;
  /** The pool a streamed export (COPY) reads from, chosen the same way. */
  exportPool(): Promise<pg.Pool>;
  /** How many reads each side served: what the tests read to prove the routing. */
  readonly served: { replica: number; primary: number };
};

/** The replica answered but cannot serve this read; `avoid`: nor the next ones for a while (it is no standby). */
class ReplicaNotReady extends Error {
  constructor(
    message: string,
    readonly avoid = false,
  ) {
    super(message);
  }
}

/** Errors that say the replica, not the read, is at fault: the read is run again on the primary. */
function isReplicaTrouble(error: unknown): boolean {
  if (error instanceof ReplicaNotReady) return true;
  const { code, message } = error as { code?: string; message?: string };
  if (typeof code === 'string') {
    if (/^(ECONN|EHOST|ENOTFOUND|ETIMEDOUT|EPIPE|EAI_)/.test(code)) return true;
    // Connection exceptions; shutting down or still starting; a query cancelled by a conflict with recovery.
    if (code.startsWith('08') || ['57P01', '57P02', '57P03', '40001'].includes(code)) return true;
  }
  return (
    message === 'timeout exceeded when trying to connect' ||
    message === 'Connection terminated unexpectedly' ||
    message === 'Connection terminated due to connection timeout'
  );
}

export function createReportReads(
  primary: Target,
  replica: Target | null,
  warn: (message: string) => void,
): ReportReads {
  const served = { replica: 0, primary: 0 };
  let avoidUntil = 0;
  let warnedAt = -Infinity;
  const leave = (error: unknown) => {
    const now = Date.now();
    if (!(error instanceof ReplicaNotReady) || error.avoid) avoidUntil = now + REPLICA_RETRY_AFTER_MS;
    if (now - warnedAt < WARN_EVERY_MS) return;
    warnedAt = now;
    warn(`report reads go to the primary for now: the replica ${(error as Error).message}`);
  };

  /** Throws ReplicaNotReady unless the replica's replay reached `lsn` within REPLICA_WAIT_MS. */
  const waitForReplay = async (trx: Transaction<Database>, lsn: string) => {
    const deadline = Date.now() + REPLICA_WAIT_MS;
    for (;;) {
      const { rows } = await sql<{ standby: boolean; replayed: boolean | null }>`
        select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn as replayed`.execute(
        trx,
      );
      const state = rows[0]!;
      if (!state.standby) throw new ReplicaNotReady('is not a standby (DATABASE_REPLICA_URL)', true);
      if (state.replayed) return;
      if (Date.now() >= deadline)
        throw new ReplicaNotReady(`is more than ${REPLICA_WAIT_MS} ms behind the primary`);
      await new Promise((resolve) => setTimeout(resolve, REPLAY_POLL_MS));
    }
  };
  const primaryLsn = async () =>
    (await sql<{ lsn: string }>`select pg_current_wal_flush_lsn()::text as lsn`.execute(primary.db)).rows[0]!
      .lsn;

  /** `onReplica` once the replica has replayed what the primary had flushed; `onPrimary` when it cannot. */
  const routed = async <T>(
    onReplica: (lsn: string) => Promise<T>,
    onPrimary: () => Promise<T>,
  ): Promise<T> => {
    if (!replica || Date.now() < avoidUntil) return onPrimary();
    const lsn = await primaryLsn();
    try {
      const result = await onReplica(lsn);
      served.replica += 1;
      return result;
    } catch (error) {
      if (!isReplicaTrouble(error)) throw error;
      leave(error);
      return onPrimary();
    }
  };

  return {
    served,
    read: async (actor, work) => {
      const onPrimary = () => {
        served.primary += 1;
        return withActor(primary.db, actor, work);
      };
      return routed(
        (lsn) =>
          withActor(replica!.db, actor, async (trx) => {
            await waitForReplay(trx, lsn);
            return work(trx);
          }),
        onPrimary,
      );
    },
    exportPool: () =>
      routed(
        async (lsn) => {
          await withActor(replica!.db, { kind: 'system' }, (trx) => waitForReplay(trx, lsn));
          return replica!.pool;
        },
        () => {
          served.primary += 1;
          return Promise.resolve(primary.pool);
        },
      ),
  };
}
